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
 * a move that is not an int, pop at the root) this one raises a Python exception. The
 * cursor, the methods every compiled tree shares and the native interface are
 * ../board_cursor.h's, over the game_ functions here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

#define INF 1000000000L      /* harness.games.base.INF: value_floor without anticipate */
#define KEY_MIX 0x9E3779B97F4A7C15ULL   /* tree.KEY_MIX: Board.key's odd multiplier */
#define MAX_WIDTH 12         /* width * (height + 1) <= 64 with height >= 4 */

enum { ORDER_CENTRE, ORDER_LEFT, ORDER_THREATS };
static const char *const ORDER_NAMES[] = {"centre", "left", "threats"};  /* tree.ORDERS */

static PyObject *NAMES[MAX_WIDTH];    /* the columns' names, str(c + 1): a principal
                                       * variation is named move by move at every search */

typedef struct {
    u64 position, mask;      /* as Board: the mover's stones, every stone */
    int moves;               /* stones played */
} State;

typedef struct {
    int width, height, size;      /* size: squares, width * height */
    int order_kind, anticipate;
    int order[MAX_WIDTH];         /* column_order(): search order (threats: re-sorted per node) */
    u64 bottom, full;             /* Board.bottom, Board.full */
    u64 column[MAX_WIDTH];        /* the squares of each column (no spare bit) */
    u64 top[MAX_WIDTH];           /* the top square of each column: can_play */
} Game;

#define BOARD_PLIES 61       /* more than the W*H <= 60 squares (width >= 4) a push fills */
#define BOARD_NAME "Connect Four tree"
#define BOARD_CACHED_MOVES MAX_WIDTH   /* every column */
#define BOARD_VALUE_BOUND value_bound
#define BOARD_VALUE_FLOOR value_floor
#include "../board_cursor.h"

/* Bits set in x, inline: without -mpopcnt (not every x86-64 has the instruction)
 * __builtin_popcountll is a call into libgcc, once per candidate move of every node. */
static inline int popcount64(u64 x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ---- Board's helpers, on one State --------------------------------------------------- */

static inline int can_play(const Game *g, const State *s, int column) {
    return !(s->mask & g->top[column]);
}

static inline void play(const Game *g, State *s, int column) {
    s->position ^= s->mask;
    s->mask |= s->mask + (g->bottom & g->column[column]);
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
static ALWAYS_INLINE u64 winning_squares(const Game *g, u64 mask, u64 stones) {
    if (g->height == 6)
        return winning_squares_of(6, g->full ^ mask, stones);
    return winning_squares_of(g->height, g->full ^ mask, stones);
}

/* The square each column would be played on (none in a full column). */
static inline u64 playable(const Game *g, const State *s) {
    return (s->mask + g->bottom) & g->full;
}

/* Board.can_win: some playable square gives the mover four in a line. Python tries each
 * column with aligned(); a four through the new stone is exactly a winning square of the
 * mover's stones, and one without it is a four already on the board (any move "wins"). */
static inline int can_win(const Game *g, const State *s) {
    u64 possible = playable(g, s);
    if (!possible)
        return 0;
    if (winning_squares(g, s->mask, s->position) & possible)
        return 1;
    return g->height == 6 ? aligned(s->position, 7) : aligned(s->position, g->height + 1);
}

/* Board.non_losing: the playable squares that do not let the opponent win at once. */
static inline u64 non_losing(const Game *g, const State *s) {
    u64 possible = playable(g, s);
    u64 threats = winning_squares(g, s->mask, s->position ^ s->mask);
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
static int leaf_value(const Game *g, const State *s, long *value) {
    if (s->moves == g->size) {
        *value = 0;
        return 1;
    }
    if (can_win(g, s)) {
        *value = (g->size + 1 - s->moves) / 2;
        return 1;
    }
    if (g->anticipate) {
        if (!non_losing(g, s)) {
            *value = -((g->size - s->moves) / 2);      /* every move loses */
            return 1;
        }
        if (s->moves >= g->size - 2) {
            *value = 0;                                /* two squares left, no win: a draw */
            return 1;
        }
    }
    return 0;
}

/* Connect4Tree.moves into `out`: the columns in search order; their number. */
static int game_moves(const Game *g, const State *s, Move *out) {
    if (s->moves == g->size || can_win(g, s))
        return 0;
    u64 allowed;
    if (!g->anticipate) {
        allowed = playable(g, s);
    } else {
        allowed = non_losing(g, s);
        if (!allowed || s->moves >= g->size - 2)
            return 0;
    }
    int n = 0;
    for (int i = 0; i < g->width; i++)
        if (allowed & g->column[g->order[i]])
            out[n++] = g->order[i];
    if (g->order_kind != ORDER_THREATS || n < 2)
        return n;
    /* Python's sorted((-count, rank, c)): most winning squares first, ties in the centre
     * order they came in (a stable insertion sort, descending). */
    u64 possible = playable(g, s);
    int count[MAX_WIDTH];
    for (int i = 0; i < n; i++) {
        int c = (int)out[i], k = popcount64(
            winning_squares(g, s->mask, s->position | (possible & g->column[c])));
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

/* ---- the game's side of the cursor (../board_cursor.h) ------------------------------- */

/* A move argument: its column, or -1 with an exception (not an int, off the board, full). */
static int game_move_of(const Game *g, const State *s, PyObject *move, Move *out) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a Connect Four move is a column index (int), not %.100s",
                     Py_TYPE(move)->tp_name);
        return -1;
    }
    int overflow;
    long column = PyLong_AsLongAndOverflow(move, &overflow);
    if (column == -1 && PyErr_Occurred())
        return -1;
    if (overflow || column < 0 || column >= g->width) {
        PyErr_Format(PyExc_ValueError, "column %R is off the board (0 to %d)", move, g->width - 1);
        return -1;
    }
    if (!can_play(g, s, (int)column)) {
        PyErr_Format(PyExc_ValueError, "column %ld is full", column);
        return -1;
    }
    *out = column;
    return 0;
}

static void game_play(const Game *g, const State *from, Move column, State *to) {
    *to = *from;
    play(g, to, (int)column);
}

static int game_is_leaf(const Game *g, const State *s) {
    long value;
    return leaf_value(g, s, &value);
}

/* A leaf's value, else 0 (value(); the frame calls it at the horizon). */
static long game_value(const Game *g, const State *s, int ply) {
    long value;
    return leaf_value(g, s, &value) ? value : 0;
}

/* A node without moves is a leaf: its value. */
static long game_terminal_value(const Game *g, const State *s, int ply) {
    return game_value(g, s, ply);
}

/* Board.key: Pons's key position + mask, mixed by a bijection of 64-bit integers so that
 * the table's slot (key modulo its size) depends on every column. The board has at most
 * 64 bits, so Python's "n = max(64, bits)" is 64 and its "& key_bits" unsigned overflow. */
static uint64_t game_key(const Game *g, const State *s) {
    u64 x = s->position + s->mask;
    x ^= x >> 32;
    x *= KEY_MIX;
    return x ^ (x >> 32);
}

static long value_bound(const Game *g, const State *s) {
    return floor_div(g->size - 1 - s->moves, 2);
}

static long value_floor(const Game *g, const State *s) {
    return g->anticipate ? -floor_div(g->size - 2 - s->moves, 2) : -INF;
}

/* ---- construction: Connect4Tree(board, order="centre", anticipate=False) ------------- */

static int game_new(PyObject *args, PyObject *kwargs, Game *g, State *root) {
    static char *keywords[] = {"board", "order", "anticipate", NULL};
    PyObject *board;
    const char *order = "centre";
    int anticipate = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|sp:Connect4Tree", keywords, &board, &order,
                                     &anticipate))
        return -1;
    int kind = -1;
    for (int k = 0; k < 3; k++)
        if (strcmp(order, ORDER_NAMES[k]) == 0)
            kind = k;
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError, "order %s: expected centre, left or threats", order);
        return -1;
    }
    u64 width, height, position, mask, stones;
    if (board_u64_attr(board, "width", &width) || board_u64_attr(board, "height", &height)
            || board_u64_attr(board, "position", &position) || board_u64_attr(board, "mask", &mask)
            || board_u64_attr(board, "moves", &stones))
        return -1;
    if (width < 4 || height < 4 || width * (height + 1) > 64) {
        PyErr_Format(PyExc_ValueError, "a %llux%llu board: the compiled tree takes width and height "
                     "of at least 4 and width * (height + 1) <= 64 (the Python tree takes any)",
                     (unsigned long long)width, (unsigned long long)height);
        return -1;
    }
    g->width = (int)width;
    g->height = (int)height;
    g->size = (int)(width * height);
    g->order_kind = kind;
    g->anticipate = anticipate;
    int h1 = g->height + 1;
    for (int c = 0; c < g->width; c++) {
        /* column_order: left to right, or from the centre out (threats starts there) */
        g->order[c] = kind == ORDER_LEFT ? c : g->width / 2 + (1 - 2 * (c % 2)) * (c + 1) / 2;
        g->column[c] = (((u64)1 << g->height) - 1) << (c * h1);
        g->top[c] = (u64)1 << (g->height - 1 + c * h1);
        g->bottom |= (u64)1 << (c * h1);
        g->full |= g->column[c];
    }
    /* A position the Python tree could reach: stones on the board, stacked from the
     * bottom of each column, counted, the mover's among them. */
    if ((mask & ~g->full) || ((mask + g->bottom) & mask) || (position & ~mask)
            || (u64)popcount64(mask) != stones) {
        PyErr_SetString(PyExc_ValueError, "not a Connect Four position: stones off the board or "
                        "floating, the mover's not among them, or miscounted");
        return -1;
    }
    root->position = position;
    root->mask = mask;
    root->moves = (int)stones;
    return 0;
}

/* ---- the Python methods of this tree alone ------------------------------------------- */

static PyObject *Tree_value_bound(Tree *self, PyObject *unused) {
    return PyLong_FromLong(value_bound(&self->game, board_here(self)));
}

/* (least, most) the player to move can score here, whatever the position (value_range). */
static PyObject *Tree_value_range(Tree *self, PyObject *unused) {
    int left = self->game.size - board_here(self)->moves;
    return Py_BuildValue("(ii)", -(left / 2), (left + 1) / 2);
}

static PyObject *Tree_value_floor(Tree *self, PyObject *unused) {
    return PyLong_FromLong(value_floor(&self->game, board_here(self)));
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

static PyObject *Tree_get_order(Tree *self, void *unused) {
    return PyUnicode_FromString(ORDER_NAMES[self->game.order_kind]);
}

static PyObject *Tree_get_anticipate(Tree *self, void *unused) {
    return PyBool_FromLong(self->game.anticipate);
}

static PyObject *Tree_get_width(Tree *self, void *unused) {
    return PyLong_FromLong(self->game.width);
}

static PyObject *Tree_get_height(Tree *self, void *unused) {
    return PyLong_FromLong(self->game.height);
}

/* (position, mask, moves) at the root, as Connect4Tree.root. */
static PyObject *Tree_get_root(Tree *self, void *unused) {
    const State *root = &self->stack[0];
    return Py_BuildValue("(KKi)", (unsigned long long)root->position,
                         (unsigned long long)root->mask, root->moves);
}

static PyGetSetDef Tree_getset[] = {
    {"width", (getter)Tree_get_width, NULL, "columns", NULL},
    {"height", (getter)Tree_get_height, NULL, "rows", NULL},
    {"order", (getter)Tree_get_order, NULL, "centre, left or threats", NULL},
    {"anticipate", (getter)Tree_get_anticipate, NULL, "only moves that do not lose at once", NULL},
    {"root", (getter)Tree_get_root, NULL, "(position, mask, moves) of the root", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Tree_methods[] = {
    BOARD_NOARGS(moves, "The columns (ints from 0) in search order; [] at a leaf."),
    BOARD_ONEARG(push, "Play a column (ValueError: off the board or full; TypeError: not an int)."),
    BOARD_NOARGS(leaf_value, "The node's value if it is a leaf, else None."),
    BOARD_NOARGS(terminal_value, "A leaf's value (AssertionError at a node with moves)."),
    BOARD_NOARGS(value, "A leaf's value, else 0."),
    BOARD_ONEARG(child_value, "value() of the child reached by a column, the cursor left where it is."),
    BOARD_NOARGS(value_bound, "The most the player to move can still score, once no win at once exists."),
    BOARD_NOARGS(value_range, "(least, most) the player to move can score, whatever the position."),
    BOARD_NOARGS(value_floor, "The least the player to move can score (anticipate), else -INF."),
    BOARD_NOARGS(key, "Board.key: position + mask, mixed (a bijection of 64-bit integers)."),
    BOARD_ONEARG(move_name, "str(move + 1): Pons's column number."),
    BOARD_METHODS("cutoff(move, depth): the column order is fixed, nothing to learn."),
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = BOARD_TYPE(
    "harness.games.connect4._board.Connect4Tree",
    "Connect4Tree(board, order='centre', anticipate=False)\n\n"
    "The compiled twin of harness.games.connect4.tree.Connect4Tree, for boards of at most 64 bits.");

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled Connect Four tree (harness.games.connect4.compiled chooses it).", -1, NULL,
};

PyMODINIT_FUNC PyInit__board(void) {
    for (int c = 0; c < MAX_WIDTH; c++)
        if ((NAMES[c] = PyUnicode_FromFormat("%d", c + 1)) == NULL)
            return NULL;
    return board_module(&module, "Connect4Tree");
}
