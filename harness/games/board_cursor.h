/* The cursor of a compiled board tree: what every `_board.c` of a game that offers
 * native_tree() shares (Connect Four's, Othello's, checkers'), so that each of them is
 * its game's rules and nothing else.
 *
 * The tree is a stack of nodes: stack[0] the root, stack[ply] the node the cursor is on;
 * push writes the child into the next slot, pop steps back, reset returns to the root.
 * Here are that stack, the Python methods every such tree has (moves, push, pop,
 * leaf_value, terminal_value, value, child_value, key, reset, cutoff, native_tree: each
 * the same call of the game's functions), the native interface (native_tree.h) over the
 * same functions, the constructor, and the module's set-up. The messages of the errors
 * are the ones tests/test_*_compiled.py check against the Python trees.
 *
 * What the game defines before it includes this file:
 *   State          one node, copied by value (a push is a copy into the next slot);
 *   Game           what a tree holds besides its nodes (board size, tables), set once by
 *                  game_new: every function below reads it, none writes it;
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
 *                  module's methods) and the native tactical; left undefined (Connect
 *                  Four), the tree offers none of them.
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
 * After the include the game writes what is its own: its Python methods beyond these
 * (move_name, getters), Tree_methods (BOARD_METHODS gives the shared entries without a
 * game's wording), Tree_getset, TreeType = BOARD_TYPE(...) and PyInit__board, which ends
 * with board_module(). A compiled frame may call the native functions only on a tree of
 * exactly this type (native_tree_capsule sees to it).
 *
 * Chess's _board.c keeps a cursor of its own (the same stack of nodes): its tree is not a
 * native one (its key is a Python Key object; its searches need quiescence and the null
 * move), and its moves() and reset() read and clear what cutoff() learns (killers,
 * history), which a read-only Game does not hold.
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

static int game_new(PyObject *args, PyObject *kwargs, Game *game, State *root);
static int game_moves(const Game *game, const State *state, Move *out);
static int game_move_of(const Game *game, const State *state, PyObject *move, Move *out);
static void game_play(const Game *game, const State *from, Move move, State *to);
static uint64_t game_key(const Game *game, const State *state);
static long game_value(const Game *game, const State *state, int ply);
static int game_is_leaf(const Game *game, const State *state);
static long game_terminal_value(const Game *game, const State *state, int ply);
#ifdef BOARD_VALUE_BOUND
static long BOARD_VALUE_BOUND(const Game *game, const State *state);
#endif
#ifdef BOARD_VALUE_FLOOR
static long BOARD_VALUE_FLOOR(const Game *game, const State *state);
#endif
#ifdef BOARD_TACTICAL
static int BOARD_TACTICAL(const Game *game, const State *state, Move move);
#endif

typedef struct {
    PyObject_HEAD
    Game game;
    int ply;                         /* the cursor: plies from the root */
    State stack[BOARD_PLIES + 1];    /* the root, then the node after each push */
} Tree;

static PyTypeObject TreeType;        /* the game's: native_tree() checks an instance is one */
static PyObject *MOVE_INTS[BOARD_CACHED_MOVES];   /* no allocation for most moves handed out */

#define TREE(object) ((Tree *)(object))

static inline const State *board_here(const Tree *t) { return &t->stack[t->ply]; }

/* Step to the child of a move (checked, or one the tree gave); pop steps back. The frame's
 * calls need no checks: it plays only the moves moves() gave, at most its depth deep. */
static inline void board_push(Tree *t, Move move) {
    game_play(&t->game, &t->stack[t->ply], move, &t->stack[t->ply + 1]);
    t->ply++;
}

static inline void board_pop(Tree *t) { t->ply--; }

/* ---- the Python methods -------------------------------------------------------------- */

static PyObject *board_move_int(Move move) {
    if (move >= 0 && move < BOARD_CACHED_MOVES)
        return Py_NewRef(MOVE_INTS[move]);
    return PyLong_FromLongLong(move);
}

static PyObject *Tree_moves(Tree *self, PyObject *unused) {
    Move found[NATIVE_MAX_MOVES];
    int n = game_moves(&self->game, board_here(self), found);
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

static PyObject *Tree_push(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    if (self->ply == BOARD_PLIES) {
        PyErr_SetString(PyExc_RuntimeError, BOARD_NAME ": stack overflow");
        return NULL;
    }
    board_push(self, move);
    Py_RETURN_NONE;
}

static PyObject *Tree_pop(Tree *self, PyObject *unused) {
    if (self->ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop at the root: no move to take back");
        return NULL;
    }
    board_pop(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_reset(Tree *self, PyObject *unused) {
    self->ply = 0;
    Py_RETURN_NONE;
}

/* The node's value if it is a leaf, else None (a game without this Python method, such as
 * checkers, leaves it out of its table). */
BOARD_MAYBE_UNUSED static PyObject *Tree_leaf_value(Tree *self, PyObject *unused) {
    if (!game_is_leaf(&self->game, board_here(self)))
        Py_RETURN_NONE;
    return PyLong_FromLong(game_terminal_value(&self->game, board_here(self), self->ply));
}

static PyObject *Tree_terminal_value(Tree *self, PyObject *unused) {
    if (!game_is_leaf(&self->game, board_here(self))) {
        PyErr_SetString(PyExc_AssertionError, "terminal_value of a node with moves");
        return NULL;
    }
    return PyLong_FromLong(game_terminal_value(&self->game, board_here(self), self->ply));
}

static PyObject *Tree_value(Tree *self, PyObject *unused) {
    return PyLong_FromLong(game_value(&self->game, board_here(self), self->ply));
}

/* value() of the child, without moving the cursor (the frame's leaf shortcut). */
static PyObject *Tree_child_value(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    State child;
    game_play(&self->game, board_here(self), move, &child);
    return PyLong_FromLong(game_value(&self->game, &child, self->ply + 1));
}

static PyObject *Tree_key(Tree *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(game_key(&self->game, board_here(self)));
}

/* The move order is static: nothing to learn. */
static PyObject *Tree_cutoff(Tree *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "cutoff(move, depth) takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- the native interface (native_tree.h): the same functions as C calls ------------- */

static int native_moves(PyObject *t, Move *out) {
    int n = game_moves(&TREE(t)->game, board_here(TREE(t)), out);
    return n > NATIVE_MAX_MOVES ? NATIVE_MAX_MOVES : n;   /* more than any position has */
}

static void native_push(PyObject *t, Move move) { board_push(TREE(t), move); }
static void native_pop(PyObject *t) { board_pop(TREE(t)); }

static uint64_t native_key(PyObject *t) { return game_key(&TREE(t)->game, board_here(TREE(t))); }

static long native_value(PyObject *t) {
    return game_value(&TREE(t)->game, board_here(TREE(t)), TREE(t)->ply);
}

static long native_terminal_value(PyObject *t) {
    return game_terminal_value(&TREE(t)->game, board_here(TREE(t)), TREE(t)->ply);
}

static long native_child_value(PyObject *t, Move move) {
    State child;
    game_play(&TREE(t)->game, board_here(TREE(t)), move, &child);
    return game_value(&TREE(t)->game, &child, TREE(t)->ply + 1);
}

static uint64_t native_child_key(PyObject *t, Move move) {
    State child;
    game_play(&TREE(t)->game, board_here(TREE(t)), move, &child);
    return game_key(&TREE(t)->game, &child);
}

#ifdef BOARD_VALUE_BOUND
static long native_value_bound(PyObject *t) {
    return BOARD_VALUE_BOUND(&TREE(t)->game, board_here(TREE(t)));
}
#define BOARD_NATIVE_VALUE_BOUND native_value_bound
#else
#define BOARD_NATIVE_VALUE_BOUND NULL
#endif

#ifdef BOARD_VALUE_FLOOR
static long native_value_floor(PyObject *t) {
    return BOARD_VALUE_FLOOR(&TREE(t)->game, board_here(TREE(t)));
}
#define BOARD_NATIVE_VALUE_FLOOR native_value_floor
#else
#define BOARD_NATIVE_VALUE_FLOOR NULL
#endif

#ifdef BOARD_TACTICAL
static int native_tactical(PyObject *t, Move move) {
    return BOARD_TACTICAL(&TREE(t)->game, board_here(TREE(t)), move);
}
#define BOARD_NATIVE_TACTICAL native_tactical
#else
#define BOARD_NATIVE_TACTICAL NULL
#endif

static const NativeTree NATIVE = {
    .version = NATIVE_TREE_VERSION,
    .moves = native_moves,
    .push = native_push,
    .pop = native_pop,
    .key = native_key,
    .value = native_value,
    .terminal_value = native_terminal_value,
    .child_value = native_child_value,
    .value_bound = BOARD_NATIVE_VALUE_BOUND,
    .value_floor = BOARD_NATIVE_VALUE_FLOOR,
    .cutoff = NULL,                      /* the move order is static */
    .child_key = native_child_key,
    .tactical = BOARD_NATIVE_TACTICAL,  /* NULL: no selective switches */
};

static PyObject *Tree_native_tree(Tree *self, PyObject *unused) {
    return native_tree_capsule((PyObject *)self, &TreeType, &NATIVE);
}

/* ---- the selective switches (a game that defines BOARD_TACTICAL) --------------------- */

#ifdef BOARD_TACTICAL
/* The game's SelectiveMargins (a Python object, the same one the Python tree declares),
 * from set_selective_margins; None before it is called. */
static PyObject *board_selective_margins;

/* SelectiveTree.tactical of a move playable here (checked as push checks it). */
static PyObject *Tree_tactical(Tree *self, PyObject *argument) {
    Move move;
    if (game_move_of(&self->game, board_here(self), argument, &move) < 0)
        return NULL;
    return PyBool_FromLong(BOARD_TACTICAL(&self->game, board_here(self), move));
}

static PyObject *Tree_get_selective_margins(Tree *self, void *unused) {
    return Py_NewRef(board_selective_margins != NULL ? board_selective_margins : Py_None);
}

static PyObject *board_set_selective_margins(PyObject *module, PyObject *margins) {
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
 * learns nothing from a cutoff. */
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
