/* The cursor of a compiled board tree: what every `_board.c` shares (Connect Four's,
 * Othello's, checkers', chess's), so that each of them is its game's rules and nothing else.
 *
 * The tree is a stack of nodes: stack[0] the root, stack[ply] the node the cursor is on;
 * push writes the child into the next slot, pop steps back, reset returns to the root.
 * Here are that stack, the Python methods every such tree has (moves, push, pop,
 * leaf_value, terminal_value, value, child_value, key, reset, cutoff, native_tree: each
 * the same call of the game's functions), the native interface (native_tree.h) over the
 * same functions (board_native.h, included here), the constructor, and the module's set-up. The messages of the errors
 * are the ones tests/test_*_compiled.py check against the Python trees.
 *
 * What the game defines before it includes this file:
 *   State          one node, copied by value (a push is a copy into the next slot);
 *   Game           what a tree holds besides its nodes (board size, tables), set once by
 *                  game_new: every function below reads it, none writes it (but a game's
 *                  own cursor, BOARD_OWN_CURSOR, may keep in it what it updates);
 *   BOARD_PLIES    the most pushes past the root (more: RuntimeError "... stack overflow");
 *   BOARD_NAME     the tree in messages ("Othello tree");
 *   BOARD_CACHED_MOVES  moves below this are handed to Python as ints made once at import;
 *   BOARD_VALUE_BOUND, BOARD_VALUE_FLOOR (optional) the names of its functions
 *                  long f(const Game *, const State *) for the frame's value_bound and
 *                  value_floor; left undefined, the tree offers none.
 *   BOARD_TACTICAL (optional) the name of its function int f(const Game *, const State *,
 *                  Move): whether a move at the node is tactical (SelectiveTree.tactical:
 *                  never reduced or pruned). Defined, the tree offers the selective
 *                  switches: the Python method tactical (BOARD_TACTICAL_METHOD in its
 *                  Tree_methods), the getter selective_margins (BOARD_SELECTIVE_GETSET in
 *                  its Tree_getset, the game's SelectiveMargins handed over once by the
 *                  module function set_selective_margins, BOARD_SELECTIVE_SETUP in its
 *                  module's methods, or assigned to board_selective_margins by the game's
 *                  own set-up) and the native tactical; left undefined (Connect Four),
 *                  the tree offers none of them.
 * and, anywhere in the file, these functions (declared below):
 *   game_new       the root and the Game from the constructor's arguments (0), or -1 with
 *                  a Python exception; Game arrives zeroed;
 *   game_moves     the moves in search order into out (at most NATIVE_MAX_MOVES), their
 *                  number; a number above NATIVE_MAX_MOVES says there were more;
 *   game_move_of   the move a Python argument names, checked playable at the node (0), or
 *                  -1 with TypeError or ValueError: push and child_value take nothing else;
 *   game_play      the child a move leads to (to is never from), for checked moves and
 *                  the frame's, which are moves game_moves gave: nothing checked again;
 *   game_key       the node's key as an unsigned 64-bit integer (the Python key());
 *   game_value     the node's value at the horizon, `ply` plies from the root;
 *   game_is_leaf   whether the node has no moves (terminal_value's precondition);
 *   game_terminal_value  the value of a node without moves, `ply` plies from the root.
 *
 * What a game may define besides, each optional (chess defines them all but
 * BOARD_SET_APART; Othello and checkers BOARD_SET_APART alone; Connect Four none):
 *   BOARD_SET_APART, BOARD_HISTORY_SIZE  the tree offers killer moves and the history
 *                  heuristic over the shared cursor (board_learning.h, included here, says
 *                  what they are; its Game has `int killers_on, history_on`): moves() orders
 *                  the quiet moves by what cutoff() learnt, which reset forgets, and the
 *                  native cutoff is the same learning.
 *   BOARD_RESERVE  stack slots past BOARD_PLIES for the game's own searches below a
 *                  node (chess's quiescence), which push never reaches; default 0.
 *   BOARD_OVERFLOW_ERROR, BOARD_OVERFLOW_MESSAGE  the exception of a push past
 *                  BOARD_PLIES and its message (default RuntimeError, BOARD_NAME
 *                  ": stack overflow"); BOARD_POP_MESSAGE the IndexError's of pop at the
 *                  root (default "pop at the root: no move to take back").
 *   BOARD_OWN_CURSOR  the game's node is more than its State: what a child is, its value
 *                  or its moves depend on the path to it or on what the tree has learnt
 *                  (chess: draws by repetition, killers, history). The game then writes
 *                  the cursor's operations over the whole Tree (declared below): board_moves,
 *                  board_push, board_value, board_terminal_value, board_child_value,
 *                  board_key (the native key), board_child_key; and the Python methods
 *                  whose arguments or answers are its own, named Tree_<method> so that the
 *                  table macros fit: push, child_value, terminal_value, key (chess's is a
 *                  Key object), cutoff, tactical and, if it has one, leaf_value. It
 *                  defines none of game_moves ... game_terminal_value (game_new it does).
 *   BOARD_RESET    the name of its void f(Tree *): reset also forgets what the tree has
 *                  learnt or counted since the last reset (chess: killers, history, draws).
 *   BOARD_FREE     the name of its void f(Game *): what game_new took (references,
 *                  memory), given back when the tree goes.
 *   BOARD_CUTOFF   the name of its void f(Tree *, Move, long depth): the native cutoff
 *                  (the tree learns from a fail-high; BOARD_SET_APART defines it as
 *                  board_learning.h's); left undefined, the move order is static and the
 *                  native cutoff NULL.
 *   BOARD_SLOT_HASH  the name of its uint64_t f(Tree *): the native slot_hash, where the
 *                  Python key is not an int (native_tree.h).
 *   BOARD_KEY_AND_SLOT  the name of its uint64_t f(Tree *, uint64_t *slot_hash): the
 *                  native key_and_slot, key and slot hash from one computation.
 *   BOARD_QUIESCE  the name of its long f(Tree *, long alpha, long beta, long long
 *                  *qnodes): the native quiesce, and child_quiesce (push, quiesce, pop).
 *   BOARD_CHILD_QUIESCE  (with BOARD_QUIESCE) the name of its long f(Tree *, Move, long
 *                  alpha, long beta, long long *qnodes): the native child_quiesce, where
 *                  the game answers some children without the push (chess: a stand pat).
 *   BOARD_IN_CHECK the name of its int f(const Game *, const State *): the native and the
 *                  Python in_check (BOARD_IN_CHECK_METHOD), for the check extension.
 *   BOARD_STAGED_MOVES  the game's moves come in two stages (chess: captures and
 *                  promotions, then quiet moves): it writes board_first_moves,
 *                  board_rest_moves and board_has_rest (declared below), the native
 *                  first_moves, rest_moves and has_rest (native_tree.h).
 *   BOARD_NULL_MOVE, BOARD_NULL_ALLOWED  the Move a pass is (board_push plays it) and the
 *                  name of its int f(Tree *, int either): the native push_null and
 *                  null_allowed, and the Python ones (BOARD_NULL_METHODS), for the null
 *                  move (EnhancedTree).
 * After the include the game writes what is its own: its Python methods beyond these
 * (move_name, getters), Tree_methods (BOARD_METHODS gives the shared entries without a
 * game's wording), Tree_getset, TreeType = BOARD_TYPE(...) and PyInit__board, which ends
 * with board_module(). A compiled frame may call the native functions only on a tree of
 * exactly this type (native_tree_capsule sees to it).
 *
 * OpenSpiel's compiled cursor (openspiel/_cursor.c) is not one of these: its nodes are
 * pyspiel's state objects, made by pyspiel's child() and held in the Python tree's own
 * list, which the Python tree pops and resets; the C object only runs moves, push and the
 * values on that list's last state. There is no State to copy into a slot, no key, no
 * native interface (the frame cannot call pyspiel without Python), so neither this stack
 * nor its push and pop would take anything off its 200 lines.
 */
#ifndef HARNESS_BOARD_CURSOR_H
#define HARNESS_BOARD_CURSOR_H

#include "native_tree.h"

/* What a game may leave unused (checkers has no leaf_value and reads signed attributes). */
#if defined(__GNUC__) || defined(__clang__)
#define BOARD_MAYBE_UNUSED __attribute__((unused))
#else
#define BOARD_MAYBE_UNUSED
#endif

#ifndef BOARD_RESERVE
#define BOARD_RESERVE 0
#endif
#ifndef BOARD_OVERFLOW_ERROR
#define BOARD_OVERFLOW_ERROR PyExc_RuntimeError
#endif
#ifndef BOARD_OVERFLOW_MESSAGE
#define BOARD_OVERFLOW_MESSAGE BOARD_NAME ": stack overflow"
#endif
#ifndef BOARD_POP_MESSAGE
#define BOARD_POP_MESSAGE "pop at the root: no move to take back"
#endif

static int game_new(PyObject *args, PyObject *kwargs, Game *game, State *root);
#ifndef BOARD_OWN_CURSOR
static int game_moves(const Game *game, const State *state, Move *out);
static int game_move_of(const Game *game, const State *state, PyObject *move, Move *out);
static void game_play(const Game *game, const State *from, Move move, State *to);
static uint64_t game_key(const Game *game, const State *state);
static long game_value(const Game *game, const State *state, int ply);
static int game_is_leaf(const Game *game, const State *state);
static long game_terminal_value(const Game *game, const State *state, int ply);
#endif
#ifdef BOARD_VALUE_BOUND
static long BOARD_VALUE_BOUND(const Game *game, const State *state);
#endif
#ifdef BOARD_VALUE_FLOOR
static long BOARD_VALUE_FLOOR(const Game *game, const State *state);
#endif
#ifdef BOARD_TACTICAL
static int BOARD_TACTICAL(const Game *game, const State *state, Move move);
#endif
#ifdef BOARD_IN_CHECK
static int BOARD_IN_CHECK(const Game *game, const State *state);
#endif
#ifdef BOARD_FREE
static void BOARD_FREE(Game *game);
#endif

#ifdef BOARD_SET_APART
#include "board_learning.h"   /* killers and history over the shared cursor */
#define BOARD_CUTOFF board_learn_cutoff
#endif

typedef struct {
    PyObject_HEAD
    Game game;
    int ply;                         /* the cursor: plies from the root */
    State stack[BOARD_PLIES + 1 + BOARD_RESERVE];   /* the root, then the node after each push */
#ifdef BOARD_SET_APART
    BoardLearning learnt;            /* what cutoff() learnt since the last reset */
#endif
} Tree;

/* The optional parts over the whole tree (each the game's function, named by its macro). */
#ifdef BOARD_RESET
static void BOARD_RESET(Tree *t);
#endif
#ifdef BOARD_CUTOFF
static void BOARD_CUTOFF(Tree *t, Move move, long depth);
#endif
#ifdef BOARD_SLOT_HASH
static uint64_t BOARD_SLOT_HASH(Tree *t);
#endif
#ifdef BOARD_KEY_AND_SLOT
static uint64_t BOARD_KEY_AND_SLOT(Tree *t, uint64_t *slot_hash);
#endif
#ifdef BOARD_QUIESCE
static long BOARD_QUIESCE(Tree *t, long alpha, long beta, long long *qnodes);
#endif
#ifdef BOARD_CHILD_QUIESCE
static long BOARD_CHILD_QUIESCE(Tree *t, Move move, long alpha, long beta, long long *qnodes);
#endif
#ifdef BOARD_NULL_MOVE
static int BOARD_NULL_ALLOWED(Tree *t, int either);
#endif
#ifdef BOARD_STAGED_MOVES
static int board_first_moves(Tree *t, Move *out, int *complete);
static int board_rest_moves(Tree *t, Move *out);
static int board_has_rest(Tree *t);
#endif

static PyTypeObject TreeType;        /* the game's: native_tree() checks an instance is one */
static PyObject *MOVE_INTS[BOARD_CACHED_MOVES];   /* no allocation for most moves handed out */

#define TREE(object) ((Tree *)(object))

static inline const State *board_here(const Tree *t) { return &t->stack[t->ply]; }

static inline void board_pop(Tree *t) { t->ply--; }

/* Whether a push fits (1), or 0 with the overflow error: every checked push asks first. */
static inline int board_has_room(const Tree *t) {
    if (t->ply < BOARD_PLIES)
        return 1;
    PyErr_SetString(BOARD_OVERFLOW_ERROR, BOARD_OVERFLOW_MESSAGE);
    return 0;
}

/* ---- the cursor's operations: what the Python methods and the native interface call --- */

#ifndef BOARD_OWN_CURSOR
/* Step to the child of a move (checked, or one the tree gave); pop steps back. The frame's
 * calls need no checks: it plays only the moves moves() gave, at most its depth deep. */
static inline void board_push(Tree *t, Move move) {
    game_play(&t->game, &t->stack[t->ply], move, &t->stack[t->ply + 1]);
    t->ply++;
}

static inline int board_moves(Tree *t, Move *out) {
    int n = game_moves(&t->game, board_here(t), out);
#ifdef BOARD_SET_APART
    if (learning_active(&t->game) && n > 1 && n <= NATIVE_MAX_MOVES)
        learning_order(&t->game, &t->learnt, board_here(t), t->ply, out, n);
#endif
    return n;
}

static inline long board_value(Tree *t) {
    return game_value(&t->game, board_here(t), t->ply);
}

static inline long board_terminal_value(Tree *t) {
    return game_terminal_value(&t->game, board_here(t), t->ply);
}

static inline long board_child_value(Tree *t, Move move) {
    State child;
    game_play(&t->game, board_here(t), move, &child);
    return game_value(&t->game, &child, t->ply + 1);
}

static inline uint64_t board_key(Tree *t) { return game_key(&t->game, board_here(t)); }

static inline uint64_t board_child_key(Tree *t, Move move) {
    State child;
    game_play(&t->game, board_here(t), move, &child);
    return game_key(&t->game, &child);
}
#else
/* The game's own (BOARD_OWN_CURSOR), with the same meanings over the whole tree. */
static int board_moves(Tree *t, Move *out);
static void board_push(Tree *t, Move move);
static long board_value(Tree *t);
static long board_terminal_value(Tree *t);
static long board_child_value(Tree *t, Move move);
static uint64_t board_key(Tree *t);
static uint64_t board_child_key(Tree *t, Move move);
#endif

/* ---- the Python methods -------------------------------------------------------------- */

static PyObject *board_move_int(Move move) {
    if (move >= 0 && move < BOARD_CACHED_MOVES)
        return Py_NewRef(MOVE_INTS[move]);
    return PyLong_FromLongLong(move);
}

static PyObject *Tree_moves(Tree *self, PyObject *unused) {
    Move found[NATIVE_MAX_MOVES];
    int n = board_moves(self, found);
    if (n > NATIVE_MAX_MOVES) {
        PyErr_SetString(PyExc_RuntimeError, BOARD_NAME ": more moves than it holds");
        return NULL;
    }
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *move = board_move_int(found[i]);
        if (move == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static PyObject *Tree_pop(Tree *self, PyObject *unused) {
    if (self->ply == 0) {
        PyErr_SetString(PyExc_IndexError, BOARD_POP_MESSAGE);
        return NULL;
    }
    board_pop(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_reset(Tree *self, PyObject *unused) {
    self->ply = 0;
#ifdef BOARD_RESET
    BOARD_RESET(self);
#endif
#ifdef BOARD_SET_APART
    learning_clear(&self->game, &self->learnt);
#endif
    Py_RETURN_NONE;
}

static PyObject *Tree_value(Tree *self, PyObject *unused) {
    return PyLong_FromLong(board_value(self));
}

#ifndef BOARD_OWN_CURSOR
static PyObject *Tree_push(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    if (!board_has_room(self))
        return NULL;
    board_push(self, move);
    Py_RETURN_NONE;
}

/* The node's value if it is a leaf, else None (a game without this Python method, such as
 * checkers, leaves it out of its table). */
BOARD_MAYBE_UNUSED static PyObject *Tree_leaf_value(Tree *self, PyObject *unused) {
    if (!game_is_leaf(&self->game, board_here(self)))
        Py_RETURN_NONE;
    return PyLong_FromLong(board_terminal_value(self));
}

static PyObject *Tree_terminal_value(Tree *self, PyObject *unused) {
    if (!game_is_leaf(&self->game, board_here(self))) {
        PyErr_SetString(PyExc_AssertionError, "terminal_value of a node with moves");
        return NULL;
    }
    return PyLong_FromLong(board_terminal_value(self));
}

/* value() of the child, without moving the cursor (the frame's leaf shortcut). */
static PyObject *Tree_child_value(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    return PyLong_FromLong(board_child_value(self, move));
}

static PyObject *Tree_key(Tree *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(board_key(self));
}

#ifdef BOARD_SET_APART
/* The native cutoff (BOARD_CUTOFF): learn from a fail-high at the cursor's node. */
static void board_learn_cutoff(Tree *t, Move move, long depth) {
    learning_cutoff(&t->game, &t->learnt, board_here(t), t->ply, move, depth);
}
#endif

/* Learn from a fail-high (BOARD_SET_APART, when killers or history are on: the move
 * checked as push checks it), else nothing: the move order is static. */
static PyObject *Tree_cutoff(Tree *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "cutoff(move, depth) takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
#ifdef BOARD_SET_APART
    if (learning_active(&self->game)) {
        Move move;
        if (game_move_of(&self->game, board_here(self), args[0], &move) < 0)
            return NULL;
        long depth = PyLong_AsLong(args[1]);
        if (depth == -1 && PyErr_Occurred())
            return NULL;
        board_learn_cutoff(self, move, depth);
    }
#endif
    Py_RETURN_NONE;
}
#endif

#include "board_native.h"   /* the native interface over the cursor's operations */

/* ---- the optional Python methods of the check extension and the null move ------------ */

#ifdef BOARD_IN_CHECK
static PyObject *Tree_in_check(Tree *self, PyObject *unused) {
    return PyBool_FromLong(BOARD_IN_CHECK(&self->game, board_here(self)));
}
#define BOARD_IN_CHECK_METHOD(doc) BOARD_NOARGS(in_check, doc)
#endif

#ifdef BOARD_NULL_MOVE
static PyObject *Tree_push_null(Tree *self, PyObject *unused) {
    if (!board_has_room(self))
        return NULL;
    board_push(self, BOARD_NULL_MOVE);
    Py_RETURN_NONE;
}

/* EnhancedTree.null_allowed(rule): the rule "either", or any other ("both"). */
static PyObject *Tree_null_allowed(Tree *self, PyObject *rule) {
    int either = PyUnicode_Check(rule) && PyUnicode_CompareWithASCIIString(rule, "either") == 0;
    return PyBool_FromLong(BOARD_NULL_ALLOWED(self, either));
}

#define BOARD_NULL_METHODS                                                                  \
    BOARD_ONEARG(null_allowed, "Whether a null move may be tried here."),                   \
    BOARD_NOARGS(push_null, "Pass the move.")
#endif

/* ---- the selective switches (a game that defines BOARD_TACTICAL) --------------------- */

#ifdef BOARD_TACTICAL
/* The game's SelectiveMargins (a Python object, the same one the Python tree declares),
 * from set_selective_margins; None before it is called. */
static PyObject *board_selective_margins;

#ifndef BOARD_OWN_CURSOR
/* SelectiveTree.tactical of a move playable here (checked as push checks it). */
static PyObject *Tree_tactical(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    return PyBool_FromLong(BOARD_TACTICAL(&self->game, board_here(self), move));
}
#endif

static PyObject *Tree_get_selective_margins(Tree *self, void *unused) {
    return Py_NewRef(board_selective_margins != NULL ? board_selective_margins : Py_None);
}

BOARD_MAYBE_UNUSED static PyObject *board_set_selective_margins(PyObject *module, PyObject *margins) {
    Py_XSETREF(board_selective_margins, Py_NewRef(margins));
    Py_RETURN_NONE;
}

#define BOARD_TACTICAL_METHOD(doc) BOARD_ONEARG(tactical, doc)
#define BOARD_SELECTIVE_GETSET                                                              \
    {"selective_margins", (getter)Tree_get_selective_margins, NULL,                        \
     "The game's margins for the selective switches (SelectiveMargins).", NULL}
#define BOARD_SELECTIVE_SETUP                                                               \
    {"set_selective_margins", board_set_selective_margins, METH_O,                          \
     "set_selective_margins(margins): the SelectiveMargins the trees declare."}
#endif

/* ---- construction, the type and the module ------------------------------------------- */

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    Tree *self = (Tree *)type->tp_alloc(type, 0);   /* zeroed: Game arrives so */
    if (self == NULL)
        return NULL;
    if (game_new(args, kwargs, &self->game, &self->stack[0]) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

#ifdef BOARD_FREE
static void Tree_dealloc(Tree *self) {
    BOARD_FREE(&self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}
#define BOARD_DEALLOC (destructor)Tree_dealloc
#else
#define BOARD_DEALLOC NULL           /* nothing but the object: object's */
#endif

/* A Python int attribute of an object as an unsigned 64-bit word (a board's bitboard),
 * or -1 with AttributeError, TypeError or OverflowError (past 64 bits). */
BOARD_MAYBE_UNUSED static int board_u64_attr(PyObject *object, const char *name, uint64_t *out) {
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsUnsignedLongLong(value);
    Py_DECREF(value);
    return *out == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

#define BOARD_NOARGS(name, doc) {#name, (PyCFunction)Tree_##name, METH_NOARGS, doc}
#define BOARD_ONEARG(name, doc) {#name, (PyCFunction)Tree_##name, METH_O, doc}

/* The entries of Tree_methods whose wording is no game's; cutoff_doc says why the tree
 * learns nothing from a cutoff, or what it learns. */
#define BOARD_METHODS(cutoff_doc)                                                           \
    BOARD_NOARGS(pop, "Take the last move back (IndexError at the root)."),                 \
    BOARD_NOARGS(reset, "Put the cursor on the root."),                                     \
    BOARD_NOARGS(native_tree,                                                               \
                 "The tree's methods as C functions, for the compiled frame (a capsule)."), \
    {"cutoff", (PyCFunction)(void (*)(void))Tree_cutoff, METH_FASTCALL, cutoff_doc}

/* TreeType's definition: the game names it and says what it is. */
#define BOARD_TYPE(qualified_name, doc) {                                                   \
    PyVarObject_HEAD_INIT(NULL, 0)                                                          \
    .tp_name = qualified_name,                                                              \
    .tp_doc = PyDoc_STR(doc),                                                               \
    .tp_basicsize = sizeof(Tree),                                                           \
    .tp_flags = Py_TPFLAGS_DEFAULT,                                                         \
    .tp_new = Tree_new,                                                                     \
    .tp_dealloc = BOARD_DEALLOC,                                                            \
    .tp_methods = Tree_methods,                                                             \
    .tp_getset = Tree_getset,                                                               \
}

/* The module `definition` with TreeType in it as `type_name`, the move ints made: the end
 * of PyInit__board, after the game's own set-up. */
static PyObject *board_module(struct PyModuleDef *definition, const char *type_name) {
    if (PyType_Ready(&TreeType) < 0)
        return NULL;
    for (int i = 0; i < BOARD_CACHED_MOVES; i++)
        if ((MOVE_INTS[i] = PyLong_FromLong(i)) == NULL)
            return NULL;
    PyObject *module = PyModule_Create(definition);
    if (module == NULL)
        return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(module, type_name, (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

#endif
