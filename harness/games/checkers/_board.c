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
 * one raises a Python exception: push checks that a move's path is playable. The cursor,
 * the methods every compiled tree shares and the native interface are
 * ../board_cursor.h's, over the game_ functions here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint32_t u32;
typedef uint64_t u64;

#define MAX_JUMPS 12         /* the opponent's pieces: a move captures at most these */
#define KEY_SIDE 128         /* board.KEY_SIDE, board.KEY_QUIET */
#define KEY_QUIET 129
#define MAX_DRAW_PLIES 200
#define FULL 0xFFFFFFFFu

typedef struct {
    u32 black, white, kings;
    int side, quiet;
} State;

typedef struct {             /* setup() gives the tables: a tree holds only its switches */
    int killers_on, history_on;   /* CheckersTree's killers and history (../board_learning.h) */
} Game;

#define BOARD_PLIES 256      /* pushes past the root: the harness searches at most 100 plies */
#define BOARD_NAME "checkers tree"
#define BOARD_CACHED_MOVES 2048   /* every step and single jump: codes below 2^11 */
#define BOARD_TACTICAL game_tactical
#define BOARD_SET_APART game_set_apart   /* killers and history: a capture is not */
#define BOARD_HISTORY_SIZE 2048          /* a step: start square and direction, below 2^11 */
#include "../board_cursor.h"

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

static inline int bit(u32 mask, int square) { return (int)(mask >> square & 1u); }
static inline u32 own_of(const State *s) { return s->side == BLACK ? s->black : s->white; }
static inline u32 other_of(const State *s) { return s->side == BLACK ? s->white : s->black; }

/* ---- moves (Position.captures, steps, legal_moves, has_move) ------------------------- */

typedef struct {
    Move *out;
    int n, overflow;
    int side;
} Found;

static inline void add(Found *f, u64 move) {
    if (f->n < NATIVE_MAX_MOVES)
        f->out[f->n++] = (Move)move;
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

/* The moves in Position.legal_moves's order; NATIVE_MAX_MOVES + 1 where there are more
 * than out holds (more than any position has). */
static int game_moves(const Game *g, const State *s, Move *out) {
    Found f = {out, 0, 0, s->side};
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
    return f.overflow ? NATIVE_MAX_MOVES + 1 : f.n;
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

/* Position.play, of a move game_move_of accepted or game_moves gave. */
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

static void game_play(const Game *g, const State *from, Move move, State *to) {
    *to = play(from, (u64)move);
}

/* A move argument: its code, or -1 with an exception. Checks that its path is playable
 * here: the mover's piece on the start square, each direction one the piece may take, each
 * step onto an empty square, each jump over an enemy piece. (Whether a capture was
 * compulsory or the sequence complete is not checked.) */
static int game_move_of(const Game *g, const State *s, PyObject *move, Move *out) {
    if (!PyLong_Check(move)) {
        PyErr_Format(PyExc_TypeError, "a checkers move is an int, not %.100s", Py_TYPE(move)->tp_name);
        return -1;
    }
    u64 code = PyLong_AsUnsignedLongLong(move);
    if (code == (u64)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%R is not a checkers move", move);
        return -1;
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
        return -1;
    }
    *out = (Move)code;
    return 0;
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
static long game_value(const Game *g, const State *s, int ply) {
    if (s->quiet >= DRAW_PLIES)
        return 0;
    if (!has_move(s))
        return -(long)(WIN - ply);
    return evaluate(s);
}

static uint64_t game_key(const Game *g, const State *s) {
    u64 k = (s->side == WHITE ? ZOBRIST[KEY_SIDE] : 0) ^ ZOBRIST[KEY_QUIET + s->quiet];
    u32 masks[4] = {s->black & ~s->kings, s->white & ~s->kings, s->black & s->kings,
                    s->white & s->kings};
    for (int kind = 0; kind < 4; kind++)
        for (u32 m = masks[kind]; m; m &= m - 1)
            k ^= ZOBRIST[kind * 32 + __builtin_ctz(m)];
    return k;
}

/* A finished game: the draw count reached, or no move for the side to move. */
static int game_is_leaf(const Game *g, const State *s) {
    return s->quiet >= DRAW_PLIES || !has_move(s);
}

/* A loss or a draw: the value. */
static long game_terminal_value(const Game *g, const State *s, int ply) {
    return game_value(g, s, ply);
}

/* CheckersTree.tactical: a capture, or a man's step onto its crowning row. */
static int game_tactical(const Game *g, const State *s, Move move) {
    int start = (int)(move & 31);
    if (move >> 5 & 15)
        return 1;
    return !bit(s->kings, start) && bit(CROWN_MASK[s->side], NEIGHBOUR[start][move >> 9 & 3]);
}

/* A capture: compulsory, so a node that has one has only captures, in their order; never
 * a killer nor scored by history (CheckersTree.moves and CheckersTree.cutoff). */
static int game_set_apart(const Game *g, const State *s, Move move) {
    return (move >> 5 & 15) != 0;
}

/* ---- the Python methods of this tree alone ------------------------------------------- */

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

static PyObject *Tree_get_ply(Tree *self, void *unused) { return PyLong_FromLong(self->ply); }

/* ---- construction: CheckersTree(position, killers, history) -------------------------- */

static int int_attr(PyObject *object, const char *name, long long *out) {
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsLongLong(value);
    Py_DECREF(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int game_new(PyObject *args, PyObject *kwargs, Game *g, State *root) {
    static char *keywords[] = {"position", "killers", "history", NULL};
    PyObject *position;
    int killers = 0, history = 0;
    if (!READY) {
        PyErr_SetString(PyExc_RuntimeError, "checkers tree: setup() was not called");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pp:CheckersTree", keywords, &position,
                                     &killers, &history))
        return -1;
    long long black, white, kings, side, quiet;
    if (int_attr(position, "black", &black) || int_attr(position, "white", &white)
            || int_attr(position, "kings", &kings) || int_attr(position, "side", &side)
            || int_attr(position, "quiet", &quiet))
        return -1;
    if (black < 0 || white < 0 || kings < 0 || black > FULL || white > FULL || (black & white)
            || (kings & ~(black | white)) || (side != BLACK && side != WHITE) || quiet < 0
            || quiet > DRAW_PLIES) {
        PyErr_SetString(PyExc_ValueError, "not a checkers position: pieces off the 32 squares or "
                        "on one square twice, a king without a piece, a side not 0 or 1, or a "
                        "draw count out of range");
        return -1;
    }
    root->black = (u32)black;
    root->white = (u32)white;
    root->kings = (u32)kings;
    root->side = (int)side;
    root->quiet = (int)quiet;
    g->killers_on = killers;
    g->history_on = history;
    return 0;
}

static PyGetSetDef Tree_getset[] = {
    {"ply", (getter)Tree_get_ply, NULL, "plies from the root to the cursor", NULL},
    BOARD_SELECTIVE_GETSET,
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Tree_methods[] = {
    BOARD_NOARGS(moves, "The moves (ints) in search order; [] where the game is over."),
    BOARD_ONEARG(push, "Play a move (ValueError: not playable here; TypeError: not an int)."),
    BOARD_NOARGS(terminal_value, "A finished game's value (AssertionError where there are moves)."),
    BOARD_NOARGS(value, "The game's value where it is over, else the evaluation."),
    BOARD_ONEARG(child_value, "value() of the child a move reaches, the cursor left where it is."),
    BOARD_NOARGS(key, "Position.key: the Zobrist key of pieces, side and draw count."),
    BOARD_ONEARG(move_name, "PDN's name of a move: 11-15, 22x15x8."),
    BOARD_TACTICAL_METHOD("Whether a move captures or crowns a man (tree.CheckersTree.tactical)."),
    BOARD_METHODS("cutoff(move, depth): learn from a fail-high (killers, history; a capture "
                  "teaches nothing); with neither on, nothing."),
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = BOARD_TYPE(
    "harness.games.checkers._board.CheckersTree",
    "CheckersTree(position, killers=False, history=False)\n\n"
    "The compiled twin of harness.games.checkers.tree.CheckersTree.");

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
    BOARD_SELECTIVE_SETUP,
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
    return board_module(&module, "CheckersTree");
}
