/* Legal moves and their MVV-LVA order for the chess tree, compiled.
 *
 * The same moves, in the same order, as the pure-Python generator in movegen.py (which is
 * python-chess's order), for the positions that generator handles itself: the side to
 * move is not in check and no en-passant square is set. Castling is left to the caller,
 * which inserts python-chess's castling moves where this module says they belong.
 * Everything is a pure function of the bitboards passed in; nothing is kept between calls
 * but constant tables and the shared move objects handed over by setup().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "board_geometry.h"

static PyObject *move_objects = NULL;  /* tuple, index (from * 64 + to) * 6 + promotion */
static long piece_values[7];           /* middle-game material by piece type, for MVV-LVA */

static const int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static u64 slide(int square, u64 occupied, const int steps[4][2]) {
    u64 attacks = 0;
    for (int d = 0; d < 4; d++) {
        int file = (square & 7) + steps[d][0], rank = (square >> 3) + steps[d][1];
        while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
            int s = rank * 8 + file;
            attacks |= BIT(s);
            if (occupied & BIT(s))
                break;
            file += steps[d][0];
            rank += steps[d][1];
        }
    }
    return attacks;
}

static inline u64 rook_attacks(int square, u64 occupied) { return slide(square, occupied, ROOK_STEPS); }
static inline u64 bishop_attacks(int square, u64 occupied) { return slide(square, occupied, BISHOP_STEPS); }

typedef struct {
    u64 pawns, knights, bishops, rooks, queens, kings;
    u64 side[2];                        /* occupied by black (0) and white (1) */
    int turn;                           /* 1: white to move */
} Position;

static inline int piece_type_at(const Position *p, int square) {
    u64 bb = BIT(square);
    if (p->pawns & bb) return PAWN;
    if (p->knights & bb) return KNIGHT;
    if (p->bishops & bb) return BISHOP;
    if (p->rooks & bb) return ROOK;
    if (p->queens & bb) return QUEEN;
    if (p->kings & bb) return KING;
    return NONE;
}

/* python-chess's attackers_mask(color, square) on the board's occupancy. */
static u64 attackers(const Position *p, int color, int square, u64 occupied) {
    u64 rooks_queens = p->rooks | p->queens, bishops_queens = p->bishops | p->queens;
    u64 found = (king_attacks[square] & p->kings) | (knight_attacks[square] & p->knights)
        | (rook_attacks(square, occupied) & rooks_queens)
        | (bishop_attacks(square, occupied) & bishops_queens)
        | (pawn_attacks[!color][square] & p->pawns);
    return found & p->side[color];
}

/* python-chess's _slider_blockers(king): our pieces that alone stand between the king and
 * an enemy slider. */
static u64 pinned_pieces(const Position *p, int king, u64 us, u64 them, u64 occupied) {
    u64 snipers = ((rook_attacks(king, 0) & (p->rooks | p->queens))
                   | (bishop_attacks(king, 0) & (p->bishops | p->queens))) & them;
    u64 blockers = 0;
    while (snipers) {
        int sniper = 63 - __builtin_clzll(snipers);
        snipers &= ~BIT(sniper);
        u64 b = between[king][sniper] & occupied;
        if (b && !(b & (b - 1)))
            blockers |= b;
    }
    return blockers & us;
}

static u64 piece_attacks(const Position *p, int square, u64 occupied) {
    u64 bb = BIT(square);
    if (p->knights & bb) return knight_attacks[square];
    if (p->kings & bb) return king_attacks[square];
    u64 attacks = 0;
    if ((p->bishops | p->queens) & bb) attacks |= bishop_attacks(square, occupied);
    if ((p->rooks | p->queens) & bb) attacks |= rook_attacks(square, occupied);
    return attacks;
}

#define CODE(from, to, promotion) ((from) | (to) << 6 | (promotion) << 12)
#define FROM(code) ((code) & 63)
#define TO(code) ((code) >> 6 & 63)
#define PROMOTION(code) ((code) >> 12)

typedef struct {
    int codes[MAX_MOVES];
    int count;
    int pieces;                         /* how many of them are piece moves (castling goes after) */
} MoveList;

/* The legal moves to to_mask (pawn pushes only to pushes_to) in python-chess's order, castling
 * and en passant left out. Returns 0 when the side to move is in check or has no king. */
static int generate(const Position *p, u64 to_mask, u64 pushes_to, MoveList *out) {
    int turn = p->turn;
    u64 us = p->side[turn], them = p->side[!turn], occupied = us | them;
    u64 king_mask = p->kings & us;
    out->count = out->pieces = 0;
    if (!king_mask)
        return 0;
    int king = 63 - __builtin_clzll(king_mask);
    if (attackers(p, !turn, king, occupied))
        return 0;
    u64 pinned = pinned_pieces(p, king, us, them, occupied);

    for (u64 origins = us & ~p->pawns; origins;) {
        int origin = 63 - __builtin_clzll(origins);
        origins &= ~BIT(origin);
        u64 targets = piece_attacks(p, origin, occupied) & ~us & to_mask;
        while (targets) {
            int target = 63 - __builtin_clzll(targets);
            targets &= ~BIT(target);
            if (origin == king ? !attackers(p, !turn, target, occupied)
                               : (!(BIT(origin) & pinned) || (line_through[origin][target] & king_mask)))
                out->codes[out->count++] = CODE(origin, target, 0);
        }
    }
    out->pieces = out->count;

    u64 pawns = p->pawns & us;
    for (u64 origins = pawns; origins;) {
        int origin = 63 - __builtin_clzll(origins);
        origins &= ~BIT(origin);
        u64 targets = pawn_attacks[turn][origin] & them & to_mask;
        int free = !(BIT(origin) & pinned);
        while (targets) {
            int target = 63 - __builtin_clzll(targets);
            targets &= ~BIT(target);
            if (!free && !(line_through[origin][target] & king_mask))
                continue;
            if (BIT(target) & BACK_RANKS)
                for (int i = 0; i < 4; i++)
                    out->codes[out->count++] = CODE(origin, target, PROMOTIONS[i]);
            else
                out->codes[out->count++] = CODE(origin, target, 0);
        }
    }
    u64 single, twice;
    int step = pawn_pushes(pawns, occupied, turn, &single, &twice);
    single &= pushes_to;
    twice &= pushes_to;
    while (single) {
        int target = 63 - __builtin_clzll(single);
        single &= ~BIT(target);
        int origin = target + step;
        if ((BIT(origin) & pinned) && !(line_through[origin][target] & king_mask))
            continue;
        if (BIT(target) & BACK_RANKS)
            for (int i = 0; i < 4; i++)
                out->codes[out->count++] = CODE(origin, target, PROMOTIONS[i]);
        else
            out->codes[out->count++] = CODE(origin, target, 0);
    }
    while (twice) {
        int target = 63 - __builtin_clzll(twice);
        twice &= ~BIT(target);
        int origin = target + 2 * step;
        if ((BIT(origin) & pinned) && !(line_through[origin][target] & king_mask))
            continue;
        out->codes[out->count++] = CODE(origin, target, 0);
    }
    return 1;
}

/* MVV-LVA: a capture or promotion scores 10 * (victim + promotion) - attacker, best first;
 * ties broken by (from, to, promotion), as movegen.mvv_lva does. Returns how many of
 * codes[0:count] are tactical; they go, sorted, into tactical[], the others into quiet[]
 * (quiet_pieces: how many of those came from codes[0:pieces]). */
static int split_tactical(const Position *p, const int *codes, int count, int *tactical,
                          int *quiet, int *quiet_count, int pieces, int *quiet_pieces) {
    long long keys[MAX_MOVES];
    int n = 0;
    u64 them = p->side[!p->turn];
    *quiet_count = *quiet_pieces = 0;
    for (int i = 0; i < count; i++) {
        if (i == pieces)
            *quiet_pieces = *quiet_count;
        int code = codes[i], to = TO(code), promotion = PROMOTION(code), victim;
        if (them & BIT(to))
            victim = piece_type_at(p, to);
        else if (promotion)
            victim = NONE;
        else {
            quiet[(*quiet_count)++] = code;
            continue;
        }
        long score = piece_values[piece_type_at(p, FROM(code))]
                     - 10 * (piece_values[victim] + piece_values[promotion]);
        long long key = (long long)(score + (1L << 30)) << 20
                        | (long long)FROM(code) << 12 | TO(code) << 6 | promotion;
        int j = n++;                                   /* insertion sort: a few moves */
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            tactical[j] = tactical[j - 1];
            j--;
        }
        keys[j] = key;
        tactical[j] = code;
    }
    if (pieces >= count)               /* no pawn move: every quiet move came from a piece */
        *quiet_pieces = *quiet_count;
    return n;
}

static PyObject *move_list(const int *codes, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        int code = codes[i];
        PyObject *move = PyTuple_GET_ITEM(move_objects, (FROM(code) * 64 + TO(code)) * 6 + PROMOTION(code));
        Py_INCREF(move);
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static int read_position(PyObject *const *args, Py_ssize_t nargs, Position *p) {
    if (move_objects == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "_movegen.setup() was not called");
        return 0;
    }
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "expected pawns, knights, bishops, rooks, queens, kings, "
                                         "white, black, turn");
        return 0;
    }
    u64 *fields[8] = {&p->pawns, &p->knights, &p->bishops, &p->rooks, &p->queens, &p->kings,
                      &p->side[1], &p->side[0]};
    for (int i = 0; i < 8; i++) {
        *fields[i] = PyLong_AsUnsignedLongLongMask(args[i]);
        if (*fields[i] == (u64)-1 && PyErr_Occurred())
            return 0;
    }
    int turn = PyObject_IsTrue(args[8]);
    if (turn < 0)
        return 0;
    p->turn = turn;
    return 1;
}

typedef struct {
    Position position;
    MoveList moves;
    int tactical[MAX_MOVES], quiet[MAX_MOVES];
    int tactical_count, quiet_count, quiet_pieces;
} Split;

/* The ordered() tuple of a split. */
static PyObject *ordered_result(const Split *s) {
    PyObject *legal = move_list(s->moves.codes, s->moves.count);
    PyObject *tactical = move_list(s->tactical, s->tactical_count);
    PyObject *quiet = move_list(s->quiet, s->quiet_count);
    PyObject *codes = PyTuple_New(s->tactical_count);
    for (int i = 0; codes != NULL && i < s->tactical_count; i++) {
        PyObject *code = PyLong_FromLong(s->tactical[i]);
        if (code == NULL)
            Py_CLEAR(codes);
        else
            PyTuple_SET_ITEM(codes, i, code);
    }
    PyObject *result = NULL;
    if (legal != NULL && tactical != NULL && quiet != NULL && codes != NULL)
        result = Py_BuildValue("(OOOOii)", legal, tactical, quiet, codes, s->moves.pieces,
                               s->quiet_pieces);
    Py_XDECREF(legal);
    Py_XDECREF(tactical);
    Py_XDECREF(quiet);
    Py_XDECREF(codes);
    return result;
}

/* Both entry points: read the position, generate its moves (all, or only captures and
 * promotions), split them; None in check or without a king. */
static PyObject *generate_split(PyObject *const *args, Py_ssize_t nargs, int tactical_only) {
    Split s;
    if (!read_position(args, nargs, &s.position))
        return NULL;
    u64 to_mask = tactical_only ? s.position.side[!s.position.turn] : ALL_SQUARES;
    if (!generate(&s.position, to_mask, tactical_only ? BACK_RANKS : ALL_SQUARES, &s.moves))
        Py_RETURN_NONE;
    s.tactical_count = split_tactical(&s.position, s.moves.codes, s.moves.count, s.tactical,
                                      s.quiet, &s.quiet_count, s.moves.pieces, &s.quiet_pieces);
    return tactical_only ? move_list(s.tactical, s.tactical_count) : ordered_result(&s);
}

PyDoc_STRVAR(ordered_doc,
"ordered(pawns, knights, bishops, rooks, queens, kings, white, black, turn)\n\n"
"(legal, tactical, quiet, tactical_codes, pieces, quiet_pieces), or None in check or\n"
"without a king. legal: every legal move but castling and en passant, in python-chess's\n"
"order; tactical: its captures and promotions in MVV-LVA order; quiet: the rest in\n"
"generation order; castling moves belong at legal[pieces] and quiet[quiet_pieces].");

static PyObject *ordered(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return generate_split(args, nargs, 0);
}

PyDoc_STRVAR(tactical_doc,
"tactical(pawns, knights, bishops, rooks, queens, kings, white, black, turn)\n\n"
"The legal captures and promotions (en passant left out) in MVV-LVA order, or None in\n"
"check or without a king.");

static PyObject *tactical_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return generate_split(args, nargs, 1);
}

PyDoc_STRVAR(setup_doc,
"setup(moves, values)\n\n"
"moves: a tuple of 64 * 64 * 6 move objects, (from * 64 + to) * 6 + promotion; values: the\n"
"material of piece types 0-6 for MVV-LVA.");

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *moves, *values;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &moves, &PyTuple_Type, &values))
        return NULL;
    if (PyTuple_GET_SIZE(moves) != 64 * 64 * 6 || PyTuple_GET_SIZE(values) != 7) {
        PyErr_SetString(PyExc_ValueError, "expected 24576 moves and 7 values");
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        piece_values[i] = PyLong_AsLong(PyTuple_GET_ITEM(values, i));
        if (piece_values[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    Py_INCREF(moves);
    Py_XSETREF(move_objects, moves);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"ordered", (PyCFunction)(void (*)(void))ordered, METH_FASTCALL, ordered_doc},
    {"tactical", (PyCFunction)(void (*)(void))tactical_moves, METH_FASTCALL, tactical_doc},
    {"setup", setup, METH_VARARGS, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen",
    "Compiled legal move generation and MVV-LVA order for harness.trees.movegen.", -1, methods,
};

PyMODINIT_FUNC PyInit__movegen(void) {
    make_geometry();
    return PyModule_Create(&module);
}
