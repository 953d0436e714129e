/* Connect Four positions as a tree, compiled: the twin of Connect4Tree in tree.py.
 *
 * The search frame calls a tree's methods several times a node (moves, push, pop, key,
 * value_bound, value_floor); in Python each call is a frame and a few big-integer
 * operations, and the tree costs more than the search. Here each is one C call on two
 * 64-bit words. Everything mirrors tree.py: the same bitboards (Pons's layout: a column
 * after another, height + 1 bits each, a spare bit on top; `mask` has a bit for every
 * stone, `position` for the stones of the player to move), the same moves in the same
 * order, the same values, bounds and keys, the same names (Board's helpers and the
 * tree's methods). tests/test_connect4_compiled.py compares the two node for node.
 *
 * Boards of at most 64 bits only (width * (height + 1) <= 64, width and height at least
 * 4, as the game's options): connect4/compiled.py gives bigger ones the Python tree.
 * Where the Python tree would silently corrupt its board (a column off the board or full,
 * a move that is not an int, pop at the root) this one raises a Python exception.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "../native_tree.h"

typedef uint64_t u64;

#define INF 1000000000L      /* harness.games.base.INF: value_floor without anticipate */
#define KEY_MIX 0x9E3779B97F4A7C15ULL   /* tree.KEY_MIX: Board.key's odd multiplier */
#define MAX_WIDTH 12         /* width * (height + 1) <= 64 with height >= 4 */
#define MAX_STACK 61         /* W*H + 1 states: width >= 4 leaves W*H <= 60 squares */

enum { ORDER_CENTRE, ORDER_LEFT, ORDER_THREATS };
static const char *const ORDER_NAMES[] = {"centre", "left", "threats"};  /* tree.ORDERS */

static PyTypeObject TreeType;        /* below: native_tree() checks an instance is exactly one */
static PyObject *COLUMNS[MAX_WIDTH];  /* the ints moves() hands out: no allocation per move */
static PyObject *NAMES[MAX_WIDTH];    /* their names, str(c + 1): a principal variation is
                                       * named move by move at every search */

typedef struct {
    u64 position, mask;      /* as Board: the mover's stones, every stone */
    int moves;               /* stones played */
} State;

typedef struct {
    PyObject_HEAD
    int width, height, size;      /* size: squares, width * height */
    int order_kind, anticipate;
    int order[MAX_WIDTH];         /* column_order(): search order (threats: re-sorted per node) */
    u64 bottom, full;             /* Board.bottom, Board.full */
    u64 column[MAX_WIDTH];        /* the squares of each column (no spare bit) */
    u64 top[MAX_WIDTH];           /* the top square of each column: can_play */
    State root, now;              /* the root; the node the cursor is on */
    int depth;                    /* states on the stack: push saves, pop restores */
    State stack[MAX_STACK];
} Tree;

/* Bits set in x, inline: without -mpopcnt (not every x86-64 has the instruction)
 * __builtin_popcountll is a call into libgcc, once per candidate move of every node. */
static inline int popcount64(u64 x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ---- Board's helpers, on one State --------------------------------------------------- */

static inline int can_play(const Tree *t, const State *s, int column) {
    return !(s->mask & t->top[column]);
}

static inline void play(const Tree *t, State *s, int column) {
    s->position ^= s->mask;
    s->mask |= s->mask + (t->bottom & t->column[column]);
    s->moves += 1;
}

/* Whether `stones` hold four in a line `shift` apart. */
static inline int four_in_line(u64 stones, int shift) {
    u64 pairs = stones & (stones >> shift);
    return (pairs & (pairs >> 2 * shift)) != 0;
}

/* Whether `stones` hold four in a line (tree.aligned): -, the two diagonals, |. */
static inline int aligned(u64 stones, int h1) {
    return four_in_line(stones, h1) || four_in_line(stones, h1 - 1)
        || four_in_line(stones, h1 + 1) || four_in_line(stones, 1);
}

/* The empty squares that would give `stones` four in a line (Pons's
 * compute_winning_position). Every term is an AND of shifts landing on the same square,
 * so bits pushed past bit 63 (lost here, kept by Python's ints) are off the board either
 * way; the largest shift, 3 * (height + 2) <= 51, stays below 64. */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* One line direction of winning_squares: three of `stones` `shift` apart, and the square
 * that completes them at either end or in either gap. */
static ALWAYS_INLINE u64 winning_in_line(u64 stones, int shift) {
    u64 p = (stones << shift) & (stones << 2 * shift);
    u64 r = (p & (stones << 3 * shift)) | (p & (stones >> shift));
    p = (stones >> shift) & (stones >> 2 * shift);
    return r | (p & (stones << shift)) | (p & (stones >> 3 * shift));
}

static ALWAYS_INLINE u64 winning_squares_of(int height, u64 free, u64 stones) {
    u64 r = (stones << 1) & (stones << 2) & (stones << 3);              /* vertical */
    r |= winning_in_line(stones, height + 1);                           /* - */
    r |= winning_in_line(stones, height);                               /* / */
    r |= winning_in_line(stones, height + 2);                           /* \ */
    return r & free;
}

/* The standard board's height, 6, is spelled out so the compiler can fold the shifts
 * (here and in can_win's aligned(): a third of an end-game search's instructions were in
 * them); any other height is the same code with the shifts read. */
static ALWAYS_INLINE u64 winning_squares(const Tree *t, u64 mask, u64 stones) {
    if (t->height == 6)
        return winning_squares_of(6, t->full ^ mask, stones);
    return winning_squares_of(t->height, t->full ^ mask, stones);
}

/* The square each column would be played on (none in a full column). */
static inline u64 playable(const Tree *t, const State *s) {
    return (s->mask + t->bottom) & t->full;
}

/* Board.can_win: some playable square gives the mover four in a line. Python tries each
 * column with aligned(); a four through the new stone is exactly a winning square of the
 * mover's stones, and one without it is a four already on the board (any move "wins"). */
static inline int can_win(const Tree *t, const State *s) {
    u64 possible = playable(t, s);
    if (!possible)
        return 0;
    if (winning_squares(t, s->mask, s->position) & possible)
        return 1;
    return t->height == 6 ? aligned(s->position, 7) : aligned(s->position, t->height + 1);
}

/* Board.non_losing: the playable squares that do not let the opponent win at once. */
static inline u64 non_losing(const Tree *t, const State *s) {
    u64 possible = playable(t, s);
    u64 threats = winning_squares(t, s->mask, s->position ^ s->mask);
    u64 forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1))       /* two squares to block: every move loses */
            return 0;
        possible = forced;
    }
    return possible & ~(threats >> 1);   /* never play just below the opponent's square */
}

/* Python's a // b for b > 0 (value_bound and value_floor go negative on a full board). */
static inline int floor_div(int a, int b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* ---- the tree: the C side of each method --------------------------------------------- */

/* Connect4Tree.leaf_value: 1 and *value if the node is a leaf (in moves()'s order). */
static int leaf_value(const Tree *t, const State *s, long *value) {
    if (s->moves == t->size) {
        *value = 0;
        return 1;
    }
    if (can_win(t, s)) {
        *value = (t->size + 1 - s->moves) / 2;
        return 1;
    }
    if (t->anticipate) {
        if (!non_losing(t, s)) {
            *value = -((t->size - s->moves) / 2);      /* every move loses */
            return 1;
        }
        if (s->moves >= t->size - 2) {
            *value = 0;                                /* two squares left, no win: a draw */
            return 1;
        }
    }
    return 0;
}

/* Connect4Tree.moves into `out`: the columns in search order; their number. */
static int moves(const Tree *t, const State *s, Move *out) {
    if (s->moves == t->size || can_win(t, s))
        return 0;
    u64 allowed;
    if (!t->anticipate) {
        allowed = playable(t, s);
    } else {
        allowed = non_losing(t, s);
        if (!allowed || s->moves >= t->size - 2)
            return 0;
    }
    int n = 0;
    for (int i = 0; i < t->width; i++)
        if (allowed & t->column[t->order[i]])
            out[n++] = t->order[i];
    if (t->order_kind != ORDER_THREATS || n < 2)
        return n;
    /* Python's sorted((-count, rank, c)): most winning squares first, ties in the centre
     * order they came in (a stable insertion sort, descending). */
    u64 possible = playable(t, s);
    int count[MAX_WIDTH];
    for (int i = 0; i < n; i++) {
        int c = (int)out[i], k = popcount64(
            winning_squares(t, s->mask, s->position | (possible & t->column[c])));
        int j = i;
        for (; j > 0 && count[j - 1] < k; j--) {
            count[j] = count[j - 1];
            out[j] = out[j - 1];
        }
        count[j] = k;
        out[j] = c;
    }
    return n;
}

/* A move argument: its column, or -1 with an exception (not an int, off the board, full). */
static int column_of(const Tree *t, PyObject *move) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a Connect Four move is a column index (int), not %.100s",
                     Py_TYPE(move)->tp_name);
        return -1;
    }
    int overflow;
    long column = PyLong_AsLongAndOverflow(move, &overflow);
    if (column == -1 && PyErr_Occurred())
        return -1;
    if (overflow || column < 0 || column >= t->width) {
        PyErr_Format(PyExc_ValueError, "column %R is off the board (0 to %d)", move, t->width - 1);
        return -1;
    }
    if (!can_play(t, &t->now, (int)column)) {
        PyErr_Format(PyExc_ValueError, "column %ld is full", column);
        return -1;
    }
    return (int)column;
}

/* Play a column on the cursor, saving the node; take it back. The checks (a playable
 * column, a move to take back) are the Python methods'; the frame's calls need none. */
static inline void push_column(Tree *t, int column) {
    t->stack[t->depth++] = t->now;
    play(t, &t->now, column);
}

static inline void pop_column(Tree *t) { t->now = t->stack[--t->depth]; }

/* ---- the Python methods -------------------------------------------------------------- */

static PyObject *Tree_moves(Tree *self, PyObject *unused) {
    Move found[MAX_WIDTH];
    int n = moves(self, &self->now, found);
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyList_SET_ITEM(list, i, Py_NewRef(COLUMNS[found[i]]));
    return list;
}

static PyObject *Tree_push(Tree *self, PyObject *move) {
    int column = column_of(self, move);
    if (column < 0)
        return NULL;
    if (self->depth == MAX_STACK) {   /* cannot happen: each push fills a square */
        PyErr_SetString(PyExc_RuntimeError, "Connect Four tree: stack overflow");
        return NULL;
    }
    push_column(self, column);
    Py_RETURN_NONE;
}

static PyObject *Tree_pop(Tree *self, PyObject *unused) {
    if (self->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "pop at the root: no move to take back");
        return NULL;
    }
    pop_column(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_leaf_value(Tree *self, PyObject *unused) {
    long value;
    if (!leaf_value(self, &self->now, &value))
        Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

static PyObject *Tree_terminal_value(Tree *self, PyObject *unused) {
    long value;
    if (!leaf_value(self, &self->now, &value)) {
        PyErr_SetString(PyExc_AssertionError, "terminal_value of a node with moves");
        return NULL;
    }
    return PyLong_FromLong(value);
}

/* A leaf's value, else 0 (value(); the frame calls it at the horizon). */
static long static_value(const Tree *t, const State *s) {
    long value;
    return leaf_value(t, s, &value) ? value : 0;
}

/* value() of the child, without moving the cursor (the frame's leaf shortcut). */
static long child_value(const Tree *t, int column) {
    State child = t->now;
    play(t, &child, column);
    return static_value(t, &child);
}

static PyObject *Tree_value(Tree *self, PyObject *unused) {
    return PyLong_FromLong(static_value(self, &self->now));
}

static PyObject *Tree_child_value(Tree *self, PyObject *move) {
    int column = column_of(self, move);
    if (column < 0)
        return NULL;
    return PyLong_FromLong(child_value(self, column));
}

static long value_bound(const Tree *t) {
    return floor_div(t->size - 1 - t->now.moves, 2);
}

static PyObject *Tree_value_bound(Tree *self, PyObject *unused) {
    return PyLong_FromLong(value_bound(self));
}

/* (least, most) the player to move can score here, whatever the position (value_range). */
static PyObject *Tree_value_range(Tree *self, PyObject *unused) {
    int left = self->size - self->now.moves;
    return Py_BuildValue("(ii)", -(left / 2), (left + 1) / 2);
}

static long value_floor(const Tree *t) {
    return t->anticipate ? -floor_div(t->size - 2 - t->now.moves, 2) : -INF;
}

static PyObject *Tree_value_floor(Tree *self, PyObject *unused) {
    return PyLong_FromLong(value_floor(self));
}

/* Board.key: Pons's key position + mask, mixed by a bijection of 64-bit integers so that
 * the table's slot (key modulo its size) depends on every column. The board has at most
 * 64 bits, so Python's "n = max(64, bits)" is 64 and its "& key_bits" unsigned overflow. */
static u64 state_key(const State *s) {
    u64 x = s->position + s->mask;
    x ^= x >> 32;
    x *= KEY_MIX;
    return x ^ (x >> 32);
}

static u64 key(const Tree *t) { return state_key(&t->now); }

static PyObject *Tree_key(Tree *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(key(self));
}

/* str(int(move) + 1), as Python: any int-like move, not only a legal one. */
static PyObject *Tree_move_name(Tree *self, PyObject *move) {
    if (PyLong_CheckExact(move)) {
        long c = PyLong_AsLong(move);
        if (c >= 0 && c < MAX_WIDTH)
            return Py_NewRef(NAMES[c]);
        PyErr_Clear();                   /* too large for a long: named below */
    }
    PyObject *number = PyNumber_Long(move);
    if (number == NULL)
        return NULL;
    PyObject *one = PyLong_FromLong(1);
    PyObject *next = one == NULL ? NULL : PyNumber_Add(number, one);
    Py_DECREF(number);
    Py_XDECREF(one);
    if (next == NULL)
        return NULL;
    PyObject *name = PyObject_Str(next);
    Py_DECREF(next);
    return name;
}

static PyObject *Tree_reset(Tree *self, PyObject *unused) {
    self->now = self->root;
    self->depth = 0;
    Py_RETURN_NONE;
}

/* The column order is fixed: nothing to learn. */
static PyObject *Tree_cutoff(Tree *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "cutoff(move, depth) takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- the native interface (harness/games/native_tree.h): the same methods as C calls,
 * for the compiled frame. Moves are the column ints the Python methods take; the frame
 * only plays the moves moves() gave, so nothing is checked again here. ---------------- */

#define TREE(object) ((Tree *)(object))

static int native_moves(PyObject *t, Move *out) { return moves(TREE(t), &TREE(t)->now, out); }

static void native_push(PyObject *t, Move column) { push_column(TREE(t), (int)column); }
static void native_pop(PyObject *t) { pop_column(TREE(t)); }
static uint64_t native_key(PyObject *t) { return key(TREE(t)); }
static long native_value(PyObject *t) { return static_value(TREE(t), &TREE(t)->now); }
static long native_child_value(PyObject *t, Move column) {
    return child_value(TREE(t), (int)column);
}
static long native_value_bound(PyObject *t) { return value_bound(TREE(t)); }
static long native_value_floor(PyObject *t) { return value_floor(TREE(t)); }

static uint64_t native_child_key(PyObject *t, Move column) {
    State child = TREE(t)->now;
    play(TREE(t), &child, (int)column);
    return state_key(&child);
}

static const NativeTree NATIVE = {
    .version = NATIVE_TREE_VERSION,
    .moves = native_moves,
    .push = native_push,
    .pop = native_pop,
    .key = native_key,
    .value = native_value,
    .terminal_value = native_value,      /* a node without moves is a leaf: its value */
    .child_value = native_child_value,
    .value_bound = native_value_bound,
    .value_floor = native_value_floor,
    .cutoff = NULL,                      /* the column order is fixed */
    .child_key = native_child_key,
};

static PyObject *Tree_native_tree(Tree *self, PyObject *unused) {
    return native_tree_capsule((PyObject *)self, &TreeType, &NATIVE);
}

/* ---- construction: Connect4Tree(board, order="centre", anticipate=False) ------------- */

static int board_attr(PyObject *board, const char *name, u64 *out) {
    PyObject *value = PyObject_GetAttrString(board, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsUnsignedLongLong(value);   /* TypeError, OverflowError past 64 bits */
    Py_DECREF(value);
    return *out == (u64)-1 && PyErr_Occurred() ? -1 : 0;
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"board", "order", "anticipate", NULL};
    PyObject *board;
    const char *order = "centre";
    int anticipate = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|sp:Connect4Tree", keywords, &board, &order,
                                     &anticipate))
        return NULL;
    int kind = -1;
    for (int k = 0; k < 3; k++)
        if (strcmp(order, ORDER_NAMES[k]) == 0)
            kind = k;
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError, "order %s: expected centre, left or threats", order);
        return NULL;
    }
    u64 width, height, position, mask, stones;
    if (board_attr(board, "width", &width) || board_attr(board, "height", &height)
            || board_attr(board, "position", &position) || board_attr(board, "mask", &mask)
            || board_attr(board, "moves", &stones))
        return NULL;
    if (width < 4 || height < 4 || width * (height + 1) > 64) {
        PyErr_Format(PyExc_ValueError, "a %llux%llu board: the compiled tree takes width and height "
                     "of at least 4 and width * (height + 1) <= 64 (the Python tree takes any)",
                     (unsigned long long)width, (unsigned long long)height);
        return NULL;
    }
    Tree *self = (Tree *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->width = (int)width;
    self->height = (int)height;
    self->size = (int)(width * height);
    self->order_kind = kind;
    self->anticipate = anticipate;
    int h1 = self->height + 1;
    for (int c = 0; c < self->width; c++) {
        /* column_order: left to right, or from the centre out (threats starts there) */
        self->order[c] = kind == ORDER_LEFT ? c : self->width / 2 + (1 - 2 * (c % 2)) * (c + 1) / 2;
        self->column[c] = (((u64)1 << self->height) - 1) << (c * h1);
        self->top[c] = (u64)1 << (self->height - 1 + c * h1);
        self->bottom |= (u64)1 << (c * h1);
        self->full |= self->column[c];
    }
    /* A position the Python tree could reach: stones on the board, stacked from the
     * bottom of each column, counted, the mover's among them. */
    if ((mask & ~self->full) || ((mask + self->bottom) & mask) || (position & ~mask)
            || (u64)popcount64(mask) != stones) {
        PyErr_SetString(PyExc_ValueError, "not a Connect Four position: stones off the board or "
                        "floating, the mover's not among them, or miscounted");
        Py_DECREF(self);
        return NULL;
    }
    self->root.position = position;
    self->root.mask = mask;
    self->root.moves = (int)stones;
    self->now = self->root;
    self->depth = 0;
    return (PyObject *)self;
}

static PyObject *Tree_get_order(Tree *self, void *unused) {
    return PyUnicode_FromString(ORDER_NAMES[self->order_kind]);
}

static PyObject *Tree_get_anticipate(Tree *self, void *unused) {
    return PyBool_FromLong(self->anticipate);
}

static PyObject *Tree_get_width(Tree *self, void *unused) { return PyLong_FromLong(self->width); }
static PyObject *Tree_get_height(Tree *self, void *unused) { return PyLong_FromLong(self->height); }

/* (position, mask, moves) at the root, as Connect4Tree.root. */
static PyObject *Tree_get_root(Tree *self, void *unused) {
    return Py_BuildValue("(KKi)", (unsigned long long)self->root.position,
                         (unsigned long long)self->root.mask, self->root.moves);
}

static PyGetSetDef Tree_getset[] = {
    {"width", (getter)Tree_get_width, NULL, "columns", NULL},
    {"height", (getter)Tree_get_height, NULL, "rows", NULL},
    {"order", (getter)Tree_get_order, NULL, "centre, left or threats", NULL},
    {"anticipate", (getter)Tree_get_anticipate, NULL, "only moves that do not lose at once", NULL},
    {"root", (getter)Tree_get_root, NULL, "(position, mask, moves) of the root", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define NOARGS(name, doc) {#name, (PyCFunction)Tree_##name, METH_NOARGS, doc}
#define ONEARG(name, doc) {#name, (PyCFunction)Tree_##name, METH_O, doc}

static PyMethodDef Tree_methods[] = {
    NOARGS(moves, "The columns (ints from 0) in search order; [] at a leaf."),
    ONEARG(push, "Play a column (ValueError: off the board or full; TypeError: not an int)."),
    NOARGS(pop, "Take the last move back (IndexError at the root)."),
    NOARGS(leaf_value, "The node's value if it is a leaf, else None."),
    NOARGS(terminal_value, "A leaf's value (AssertionError at a node with moves)."),
    NOARGS(value, "A leaf's value, else 0."),
    ONEARG(child_value, "value() of the child reached by a column, the cursor left where it is."),
    NOARGS(value_bound, "The most the player to move can still score, once no win at once exists."),
    NOARGS(value_range, "(least, most) the player to move can score, whatever the position."),
    NOARGS(value_floor, "The least the player to move can score (anticipate), else -INF."),
    NOARGS(key, "Board.key: position + mask, mixed (a bijection of 64-bit integers)."),
    ONEARG(move_name, "str(move + 1): Pons's column number."),
    NOARGS(reset, "Put the cursor on the root."),
    NOARGS(native_tree, "The tree's methods as C functions, for the compiled frame (a capsule)."),
    {"cutoff", (PyCFunction)(void (*)(void))Tree_cutoff, METH_FASTCALL,
     "cutoff(move, depth): the column order is fixed, nothing to learn."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.connect4._board.Connect4Tree",
    .tp_doc = PyDoc_STR("Connect4Tree(board, order='centre', anticipate=False)\n\n"
                        "The compiled twin of harness.games.connect4.tree.Connect4Tree, for "
                        "boards of at most 64 bits."),
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Tree_new,
    .tp_methods = Tree_methods,
    .tp_getset = Tree_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled Connect Four tree (harness.games.connect4.compiled chooses it).", -1, NULL,
};

PyMODINIT_FUNC PyInit__board(void) {
    if (PyType_Ready(&TreeType) < 0)
        return NULL;
    for (int c = 0; c < MAX_WIDTH; c++)
        if ((COLUMNS[c] = PyLong_FromLong(c)) == NULL
                || (NAMES[c] = PyUnicode_FromFormat("%d", c + 1)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Connect4Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
