/* Checkers positions as a tree, compiled: the twin of CheckersTree in tree.py.
 *
 * The search frame calls a tree's methods several times a node; in Python each is a
 * frame and a loop over Python integers (about 100,000 nodes a second). Here each is one
 * C call on three 32-bit words. Everything mirrors board.py and tree.py: the same squares
 * (bit n - 1 for PDN square n), the same moves (ints: start square, jumps, directions) in
 * the same order, the same values and keys; the tables that define values and keys
 * (evaluation weights, Zobrist numbers) are handed over once by setup() from the Python
 * modules, so there is one copy of each. tests/test_checkers_compiled.py compares the two
 * trees method by method and search by search.
 *
 * Where the Python tree trusts its input (a move that is not legal, pop at the root) this
 * one raises a Python exception: push checks that a move's path is playable.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "../native_tree.h"

typedef uint32_t u32;
typedef uint64_t u64;

#define MAX_STACK 256        /* pushes past the root: the harness searches at most 100 plies */
#define MAX_MOVES 512        /* more moves than any checkers position has */
#define MAX_JUMPS 12         /* the opponent's pieces: a move captures at most these */
#define KEY_SIDE 128         /* board.KEY_SIDE, board.KEY_QUIET */
#define KEY_QUIET 129
#define MAX_DRAW_PLIES 200
#define FULL 0xFFFFFFFFu

enum { BLACK = 0, WHITE = 1 };

/* Geometry (board.NEIGHBOUR, board.JUMP, board.CROWN_MASK), built at import. */
static int NEIGHBOUR[32][4], JUMP[32][4];
static const u32 CROWN_MASK[2] = {0xFu << 28, 0xFu};
static const int MAN_DIRS[2][2] = {{2, 3}, {0, 1}};
static const int KING_DIRS[4] = {0, 1, 2, 3};
static u32 ROW_MASK[8];

/* What setup() hands over: board.ZOBRIST, board.DRAW_PLIES and the evaluation's weights. */
static int READY = 0;
static u64 ZOBRIST[KEY_QUIET + MAX_DRAW_PLIES + 1];
static int DRAW_PLIES, MAN, KING, WIN, MAN_ROW[8];

/* The ints moves() hands out for codes below 2^11 (every step and single jump): no
 * allocation per move for most of them. */
#define CACHED_MOVES 2048
static PyObject *MOVE_INTS[CACHED_MOVES];

typedef struct {
    u32 black, white, kings;
    int side, quiet;
} State;

typedef struct {
    PyObject_HEAD
    State root, now;
    int depth;                  /* states on the stack: the ply of the cursor */
    State stack[MAX_STACK];
} Tree;

static inline int bit(u32 mask, int square) { return (int)(mask >> square & 1u); }
static inline u32 own_of(const State *s) { return s->side == BLACK ? s->black : s->white; }
static inline u32 other_of(const State *s) { return s->side == BLACK ? s->white : s->black; }

/* ---- moves (Position.captures, steps, legal_moves, has_move) ------------------------- */

typedef struct {
    u64 *out;
    int n, overflow;
    int side;
} Found;

static inline void add(Found *f, u64 move) {
    if (f->n < MAX_MOVES)
        f->out[f->n++] = move;
    else
        f->overflow = 1;
}

/* Position._extend: the sequences that continue from `at` after `jumps` jumps. */
static void extend(Found *f, int start, int at, int jumps, u64 path, u32 other, u32 empty,
                   int king) {
    const int *dirs = king ? KING_DIRS : MAN_DIRS[f->side];
    int ndirs = king ? 4 : 2, extended = 0;
    for (int i = 0; i < ndirs; i++) {
        int d = dirs[i], over = NEIGHBOUR[at][d], land = JUMP[at][d];
        if (land < 0 || !bit(other, over) || !bit(empty, land))
            continue;
        extended = 1;
        u64 route = path | (u64)d << (2 * jumps);
        if (!king && bit(CROWN_MASK[f->side], land)) {
            add(f, (u64)start | (u64)(jumps + 1) << 5 | route << 9);
            continue;
        }
        extend(f, start, land, jumps + 1, route, other & ~(1u << over),
               (empty | 1u << at | 1u << over) & ~(1u << land), king);
    }
    if (!extended && jumps)
        add(f, (u64)start | (u64)jumps << 5 | path << 9);
}

static int legal_moves(const State *s, u64 *out, int *overflow) {
    Found f = {out, 0, 0, s->side};
    *overflow = 0;
    if (s->quiet >= DRAW_PLIES)
        return 0;
    u32 own = own_of(s), other = other_of(s), empty = FULL & ~(s->black | s->white);
    for (u32 m = own; m; m &= m - 1) {
        int start = __builtin_ctz(m);
        extend(&f, start, start, 0, 0, other, empty | 1u << start, bit(s->kings, start));
    }
    if (f.n == 0) {
        for (u32 m = own; m; m &= m - 1) {
            int start = __builtin_ctz(m), king = bit(s->kings, start);
            const int *dirs = king ? KING_DIRS : MAN_DIRS[s->side];
            for (int i = 0; i < (king ? 4 : 2); i++) {
                int to = NEIGHBOUR[start][dirs[i]];
                if (to >= 0 && bit(empty, to))
                    add(&f, (u64)start | (u64)dirs[i] << 9);
            }
        }
    }
    *overflow = f.overflow;
    return f.n;
}

static int has_move(const State *s) {
    u32 own = own_of(s), other = other_of(s), empty = FULL & ~(s->black | s->white);
    for (u32 m = own; m; m &= m - 1) {
        int start = __builtin_ctz(m), king = bit(s->kings, start);
        const int *dirs = king ? KING_DIRS : MAN_DIRS[s->side];
        for (int i = 0; i < (king ? 4 : 2); i++) {
            int to = NEIGHBOUR[start][dirs[i]], land = JUMP[start][dirs[i]];
            if (to >= 0 && (bit(empty, to) || (land >= 0 && bit(other, to) && bit(empty, land))))
                return 1;
        }
    }
    return 0;
}

/* Position.play, after check_move has accepted the move. */
static State play(const State *s, u64 move) {
    int start = (int)(move & 31), jumps = (int)(move >> 5 & 15), at = start;
    u64 dirs = move >> 9;
    u32 own = own_of(s), other = other_of(s), kings = s->kings;
    if (!jumps) {
        at = NEIGHBOUR[start][dirs & 3];
    } else {
        for (int i = 0; i < jumps; i++) {
            int d = (int)(dirs >> (2 * i) & 3), over = NEIGHBOUR[at][d];
            other &= ~(1u << over);
            kings &= ~(1u << over);
            at = JUMP[at][d];
        }
    }
    own = (own & ~(1u << start)) | 1u << at;
    if (bit(kings, start) || bit(CROWN_MASK[s->side], at))
        kings = (kings & ~(1u << start)) | 1u << at;
    State next;
    next.black = s->side == BLACK ? own : other;
    next.white = s->side == BLACK ? other : own;
    next.kings = kings;
    next.side = 1 - s->side;
    next.quiet = jumps ? 0 : (s->quiet + 1 < DRAW_PLIES ? s->quiet + 1 : DRAW_PLIES);
    return next;
}

/* A move argument: its code, or sets an exception and returns 0 (0 is never a move: a
 * step has a direction towards a neighbour, and square 1's up-left has none). Checks
 * that its path is playable here: the mover's piece on the start square, each direction
 * one the piece may take, each step onto an empty square, each jump over an enemy piece.
 * (Whether a capture was compulsory or the sequence complete is not checked.) */
static u64 check_move(const State *s, PyObject *move) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a checkers move is an int, not %.100s", Py_TYPE(move)->tp_name);
        return 0;
    }
    u64 code = PyLong_AsUnsignedLongLong(move);
    if (code == (u64)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%R is not a checkers move", move);
        return 0;
    }
    int start = (int)(code & 31), jumps = (int)(code >> 5 & 15), at = start;
    u32 own = own_of(s), other = other_of(s), empty = FULL & ~(s->black | s->white);
    int king = bit(s->kings, start), ok = bit(own, start) && jumps <= MAX_JUMPS
        && (code >> (9 + 2 * (jumps ? jumps : 1))) == 0;
    empty |= 1u << start;
    for (int i = 0; ok && i < (jumps ? jumps : 1); i++) {
        int d = (int)(code >> (9 + 2 * i) & 3);
        if (!king && d != MAN_DIRS[s->side][0] && d != MAN_DIRS[s->side][1]) {
            ok = 0;
        } else if (!jumps) {
            ok = NEIGHBOUR[at][d] >= 0 && bit(empty, NEIGHBOUR[at][d]);
        } else {
            int over = NEIGHBOUR[at][d], land = JUMP[at][d];
            ok = land >= 0 && bit(other, over) && bit(empty, land);
            if (ok) {
                other &= ~(1u << over);
                empty = (empty | 1u << at | 1u << over) & ~(1u << land);
                at = land;
            }
        }
    }
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "move %R cannot be played here", move);
        return 0;
    }
    return code;
}

/* ---- values and keys (evaluation.evaluate, Position.key) ------------------------------ */

static int side_total(u32 men, u32 kings, int side) {
    int total = KING * __builtin_popcount(kings);
    for (int row = 0; row < 8; row++) {
        int count = __builtin_popcount(men & ROW_MASK[row]);
        if (count)
            total += count * (MAN + MAN_ROW[side == BLACK ? row : 7 - row]);
    }
    return total;
}

static int evaluate(const State *s) {
    u32 own = own_of(s), other = other_of(s), k = s->kings;
    return side_total(own & ~k, own & k, s->side) - side_total(other & ~k, other & k, 1 - s->side);
}

/* CheckersTree.value at a node `ply` plies from the root. */
static long value_at(const State *s, int ply) {
    if (s->quiet >= DRAW_PLIES)
        return 0;
    if (!has_move(s))
        return -(long)(WIN - ply);
    return evaluate(s);
}

static u64 key(const State *s) {
    u64 k = (s->side == WHITE ? ZOBRIST[KEY_SIDE] : 0) ^ ZOBRIST[KEY_QUIET + s->quiet];
    u32 masks[4] = {s->black & ~s->kings, s->white & ~s->kings, s->black & s->kings,
                    s->white & s->kings};
    for (int kind = 0; kind < 4; kind++)
        for (u32 m = masks[kind]; m; m &= m - 1)
            k ^= ZOBRIST[kind * 32 + __builtin_ctz(m)];
    return k;
}

/* ---- the Python methods -------------------------------------------------------------- */

static PyObject *Tree_moves(Tree *self, PyObject *unused) {
    u64 found[MAX_MOVES];
    int overflow;
    int n = legal_moves(&self->now, found, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_RuntimeError, "checkers tree: more moves than it holds");
        return NULL;
    }
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *move = found[i] < CACHED_MOVES ? Py_NewRef(MOVE_INTS[found[i]])
                                                 : PyLong_FromUnsignedLongLong(found[i]);
        if (move == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static PyObject *Tree_push(Tree *self, PyObject *move) {
    u64 code = check_move(&self->now, move);
    if (code == 0)
        return NULL;
    if (self->depth == MAX_STACK) {
        PyErr_SetString(PyExc_RuntimeError, "checkers tree: stack overflow");
        return NULL;
    }
    self->stack[self->depth++] = self->now;
    self->now = play(&self->now, code);
    Py_RETURN_NONE;
}

static PyObject *Tree_pop(Tree *self, PyObject *unused) {
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "pop at the root: no move to take back");
        return NULL;
    }
    self->now = self->stack[--self->depth];
    Py_RETURN_NONE;
}

static PyObject *Tree_terminal_value(Tree *self, PyObject *unused) {
    if (self->now.quiet < DRAW_PLIES && has_move(&self->now)) {
        PyErr_SetString(PyExc_AssertionError, "terminal_value of a node with moves");
        return NULL;
    }
    return PyLong_FromLong(value_at(&self->now, self->depth));
}

static PyObject *Tree_value(Tree *self, PyObject *unused) {
    return PyLong_FromLong(value_at(&self->now, self->depth));
}

static PyObject *Tree_child_value(Tree *self, PyObject *move) {
    u64 code = check_move(&self->now, move);
    if (code == 0)
        return NULL;
    State child = play(&self->now, code);
    return PyLong_FromLong(value_at(&child, self->depth + 1));
}

static PyObject *Tree_key(Tree *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(key(&self->now));
}

/* board.move_name: 11-15, 22x15x8 (squares numbered from 1). */
static PyObject *Tree_move_name(Tree *self, PyObject *move) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a checkers move is an int, not %.100s", Py_TYPE(move)->tp_name);
        return NULL;
    }
    u64 code = PyLong_AsUnsignedLongLong(move);
    if (code == (u64)-1 && PyErr_Occurred())
        return NULL;
    int at = (int)(code & 31), jumps = (int)(code >> 5 & 15);
    char text[4 * (MAX_JUMPS + 2)];
    int length = snprintf(text, sizeof text, "%d", at + 1);
    for (int i = 0; i < (jumps ? jumps : 1); i++) {
        int d = (int)(code >> (9 + 2 * i) & 3);
        at = jumps ? JUMP[at][d] : NEIGHBOUR[at][d];
        if (at < 0 || i > MAX_JUMPS) {
            PyErr_Format(PyExc_ValueError, "%R is not a checkers move", move);
            return NULL;
        }
        length += snprintf(text + length, sizeof text - length, "%c%d", jumps ? 'x' : '-', at + 1);
    }
    return PyUnicode_FromString(text);
}

static PyObject *Tree_reset(Tree *self, PyObject *unused) {
    self->now = self->root;
    self->depth = 0;
    Py_RETURN_NONE;
}

static PyObject *Tree_cutoff(Tree *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "cutoff(move, depth) takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Tree_get_ply(Tree *self, void *unused) { return PyLong_FromLong(self->depth); }

/* ---- the native interface (harness/games/native_tree.h): the same methods as C calls,
 * for the compiled frame, on the moves moves() gave (nothing checked again). A move is
 * its code (up to 33 bits: a start square and a path of up to twelve jumps). --------- */

#define TREE(object) ((Tree *)(object))

static int native_moves(PyObject *t, Move *out) {
    u64 found[MAX_MOVES];
    int overflow, n = legal_moves(&TREE(t)->now, found, &overflow);
    if (n > NATIVE_MAX_MOVES)            /* more than any position has (MAX_MOVES) */
        n = NATIVE_MAX_MOVES;
    for (int i = 0; i < n; i++)
        out[i] = (Move)found[i];
    return n;
}

static void native_push(PyObject *t, Move move) {
    Tree *tree = TREE(t);
    tree->stack[tree->depth++] = tree->now;
    tree->now = play(&tree->now, (u64)move);
}

static void native_pop(PyObject *t) { TREE(t)->now = TREE(t)->stack[--TREE(t)->depth]; }
static uint64_t native_key(PyObject *t) { return key(&TREE(t)->now); }
static long native_value(PyObject *t) { return value_at(&TREE(t)->now, TREE(t)->depth); }

static long native_child_value(PyObject *t, Move move) {
    State child = play(&TREE(t)->now, (u64)move);
    return value_at(&child, TREE(t)->depth + 1);
}

static uint64_t native_child_key(PyObject *t, Move move) {
    State child = play(&TREE(t)->now, (u64)move);
    return key(&child);
}

static const NativeTree NATIVE = {
    .version = NATIVE_TREE_VERSION,
    .moves = native_moves,
    .push = native_push,
    .pop = native_pop,
    .key = native_key,
    .value = native_value,
    .terminal_value = native_value,      /* a node without moves: a loss or a draw, its value */
    .child_value = native_child_value,
    .value_bound = NULL,
    .value_floor = NULL,
    .cutoff = NULL,                      /* the move order is static */
    .child_key = native_child_key,
};

static PyTypeObject TreeType;

static PyObject *Tree_native_tree(Tree *self, PyObject *unused) {
    return native_tree_capsule((PyObject *)self, &TreeType, &NATIVE);
}

/* ---- construction: CheckersTree(position) --------------------------------------------- */

static int int_attr(PyObject *object, const char *name, long long *out) {
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsLongLong(value);
    Py_DECREF(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"position", NULL};
    PyObject *position;
    if (!READY) {
        PyErr_SetString(PyExc_RuntimeError, "checkers tree: setup() was not called");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:CheckersTree", keywords, &position))
        return NULL;
    long long black, white, kings, side, quiet;
    if (int_attr(position, "black", &black) || int_attr(position, "white", &white)
            || int_attr(position, "kings", &kings) || int_attr(position, "side", &side)
            || int_attr(position, "quiet", &quiet))
        return NULL;
    if (black < 0 || white < 0 || kings < 0 || black > FULL || white > FULL || (black & white)
            || (kings & ~(black | white)) || (side != BLACK && side != WHITE) || quiet < 0
            || quiet > DRAW_PLIES) {
        PyErr_SetString(PyExc_ValueError, "not a checkers position: pieces off the 32 squares or "
                        "on one square twice, a king without a piece, a side not 0 or 1, or a "
                        "draw count out of range");
        return NULL;
    }
    Tree *self = (Tree *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->root.black = (u32)black;
    self->root.white = (u32)white;
    self->root.kings = (u32)kings;
    self->root.side = (int)side;
    self->root.quiet = (int)quiet;
    self->now = self->root;
    self->depth = 0;
    return (PyObject *)self;
}

static PyGetSetDef Tree_getset[] = {
    {"ply", (getter)Tree_get_ply, NULL, "plies from the root to the cursor", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define NOARGS(name, doc) {#name, (PyCFunction)Tree_##name, METH_NOARGS, doc}
#define ONEARG(name, doc) {#name, (PyCFunction)Tree_##name, METH_O, doc}

static PyMethodDef Tree_methods[] = {
    NOARGS(moves, "The moves (ints) in search order; [] where the game is over."),
    ONEARG(push, "Play a move (ValueError: not playable here; TypeError: not an int)."),
    NOARGS(pop, "Take the last move back (IndexError at the root)."),
    NOARGS(terminal_value, "A finished game's value (AssertionError where there are moves)."),
    NOARGS(value, "The game's value where it is over, else the evaluation."),
    ONEARG(child_value, "value() of the child a move reaches, the cursor left where it is."),
    NOARGS(key, "Position.key: the Zobrist key of pieces, side and draw count."),
    ONEARG(move_name, "PDN's name of a move: 11-15, 22x15x8."),
    NOARGS(reset, "Put the cursor on the root."),
    NOARGS(native_tree, "The tree's methods as C functions, for the compiled frame (a capsule)."),
    {"cutoff", (PyCFunction)(void (*)(void))Tree_cutoff, METH_FASTCALL,
     "cutoff(move, depth): the move order is fixed, nothing to learn."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.checkers._board.CheckersTree",
    .tp_doc = PyDoc_STR("CheckersTree(position)\n\n"
                        "The compiled twin of harness.games.checkers.tree.CheckersTree."),
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Tree_new,
    .tp_methods = Tree_methods,
    .tp_getset = Tree_getset,
};

/* setup(zobrist, draw_plies, man, king, man_row, win): the tables of board.py and
 * evaluation.py (compiled.py calls it once at import). */
static PyObject *setup(PyObject *module, PyObject *args) {
    /* Read into locals first: a refused call leaves the tables as they were. */
    PyObject *zobrist, *man_row;
    int draw_plies, man, king, win, rows[8];
    u64 keys[KEY_QUIET + MAX_DRAW_PLIES + 1];
    if (!PyArg_ParseTuple(args, "O!iiiO!i:setup", &PyTuple_Type, &zobrist, &draw_plies, &man,
                          &king, &PyTuple_Type, &man_row, &win))
        return NULL;
    if (draw_plies < 1 || draw_plies > MAX_DRAW_PLIES
            || PyTuple_GET_SIZE(zobrist) != KEY_QUIET + draw_plies + 1
            || PyTuple_GET_SIZE(man_row) != 8) {
        PyErr_SetString(PyExc_ValueError, "setup: tables of the wrong size");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(zobrist); i++) {
        keys[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(zobrist, i));
        if (PyErr_Occurred())
            return NULL;
    }
    for (int i = 0; i < 8; i++) {
        rows[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(man_row, i));
        if (PyErr_Occurred())
            return NULL;
    }
    memcpy(ZOBRIST, keys, sizeof(u64) * (size_t)PyTuple_GET_SIZE(zobrist));
    memcpy(MAN_ROW, rows, sizeof rows);
    DRAW_PLIES = draw_plies;
    MAN = man;
    KING = king;
    WIN = win;
    READY = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_VARARGS, "setup(zobrist, draw_plies, man, king, man_row, win)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled checkers tree (harness.games.checkers.compiled chooses it).", -1, module_methods,
};

/* board._square_at: the bit index of the dark square at row, column, or -1. */
static int square_at(int row, int column) {
    if (row < 0 || row > 7 || column < 0 || column > 7 || (row + column) % 2 == 0)
        return -1;
    return row * 4 + column / 2;
}

PyMODINIT_FUNC PyInit__board(void) {
    static const int dr[4] = {-1, -1, 1, 1}, dc[4] = {-1, 1, -1, 1};
    for (int s = 0; s < 32; s++) {
        int row = s >> 2, column = 2 * (s & 3) + (1 - row % 2);
        ROW_MASK[row] |= 1u << s;
        for (int d = 0; d < 4; d++) {
            NEIGHBOUR[s][d] = square_at(row + dr[d], column + dc[d]);
            JUMP[s][d] = square_at(row + 2 * dr[d], column + 2 * dc[d]);
        }
    }
    if (PyType_Ready(&TreeType) < 0)
        return NULL;
    for (int i = 0; i < CACHED_MOVES; i++)
        if ((MOVE_INTS[i] = PyLong_FromLong(i)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "CheckersTree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
