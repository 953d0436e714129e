/* Chess positions for the compiled chess tree (_board.c, the only file that includes this):
 * attack tables, the position (bitboards, a piece on each square, castling rights, en
 * passant, the evaluation carried incrementally), play.py's make and evaluation.score.
 * Included after Python.h; everything is static (one translation unit). */
#ifndef HARNESS_CHESS_BOARD_POSITION_H
#define HARNESS_CHESS_BOARD_POSITION_H

#include "board_geometry.h"
#include "board_magic.h"      /* rook_attacks, bishop_attacks */

#define FILE_C 0x0404040404040404ULL
#define FILE_D 0x0808080808080808ULL
#define FILE_F 0x2020202020202020ULL
#define FILE_G 0x4040404040404040ULL
#define MAX_PLY 1024             /* positions on the stack */
#define QUIESCENCE_RESERVE 64    /* plies kept free for quiescence (at most 46: captures and promotions) */
#define MOVE_CODES (6 << 12)
#define FULL_PHASE 24

/* The highest set square as one bsr: 63 ^ clz is bsr's own result, where the compiler
 * keeps 63 - clz's two extra steps (python-chess's lists take their squares from h8 down). */
static inline int msb(u64 b) { return 63 ^ __builtin_clzll(b); }
static inline int lsb(u64 b) { return __builtin_ctzll(b); }

/* ---- tables ---------------------------------------------------------------------------- */

/* evaluation.py's tables, from setup(): material plus piece-square, White +, Black -. */
static int square_mg[2][7][64], square_eg[2][7][64];
/* Both at once: the middle-game value less the endgame one times 2^32 plus the endgame
 * one (PAIR), so that one addition moves both sums (a position carries their pair,
 * unpacked by tapered, which needs the two stages' difference). Eight types a color (the
 * last unused) make an entry's index color << 9 | type << 6 | square. */
static long long square_pair[2][8][64];
#define PAIR(mg, eg) ((long long)(mg) * 4294967296LL + (eg))
static int phase_weight[7];
static long piece_values[7];       /* middle-game material, for MVV-LVA */

/* The geometry and the sliders' tables (at import): 0 if a magic number does not hold. */
static int make_tables(void) {
    make_geometry();
    return make_magic();
}

/* ---- positions ------------------------------------------------------------------------- */

typedef struct {
    u64 bb[7];             /* by piece type (index 0 unused) */
    u64 side[2];           /* black (0), white (1) */
    u64 castling;          /* python-chess's castling_rights, cleaned */
    /* narrow, so that the position (copied whole by make) is 160 bytes, not 168 */
    signed char turn;      /* 1: White to move */
    signed char ep;        /* python-chess's ep_square, -1 for None */
    short phase;           /* evaluation's game phase (the phase weights' sum: at most 24, 4 more
                            * a promoted queen) */
    long long pair;        /* evaluation.material_sum: PAIR(middle game - endgame, endgame) */
    unsigned char piece[64];   /* the piece type on each square (NONE: empty) */
} Pos;

static inline int piece_type_at(const Pos *p, int square) { return p->piece[square]; }

/* python-chess's _attackers_mask(color, square, occupied). */
static inline u64 attackers(const Pos *p, int color, int square, u64 occupied) {
    u64 queens = p->bb[QUEEN];
    u64 found = (king_attacks[square] & p->bb[KING]) | (knight_attacks[square] & p->bb[KNIGHT])
        | (pawn_attacks[!color][square] & p->bb[PAWN]);
    u64 rq = (p->bb[ROOK] | queens) & p->side[color], bq = (p->bb[BISHOP] | queens) & p->side[color];
    if (rq & rook_rays[square]) found |= rook_attacks(square, occupied) & rq;
    if (bq & bishop_rays[square]) found |= bishop_attacks(square, occupied) & bq;
    return found & p->side[color];
}

static inline u64 occupancy(const Pos *p) { return p->side[0] | p->side[1]; }

static inline int king_square(const Pos *p, int color) {
    u64 k = p->bb[KING] & p->side[color];
    return k ? msb(k) : -1;
}

static inline void add_piece(Pos *p, int color, int type, int square) {
    p->piece[square] = (unsigned char)type;
    p->bb[type] |= BIT(square);
    p->side[color] |= BIT(square);
    p->pair += square_pair[color][type][square];
    p->phase += phase_weight[type];
}

static inline void remove_piece(Pos *p, int color, int type, int square) {
    p->piece[square] = NONE;
    p->bb[type] &= ~BIT(square);
    p->side[color] &= ~BIT(square);
    p->pair -= square_pair[color][type][square];
    p->phase -= phase_weight[type];
}

#define CODE(from, to, promotion) ((from) | (to) << 6 | (promotion) << 12)
#define FROM(code) ((code) & 63)
#define TO(code) ((code) >> 6 & 63)
#define PROMOTION(code) ((code) >> 12)

/* The mover (`placed` where it promotes) from `origin` to `target`, for make and
 * make_capture. */
static inline void move_piece(Pos *n, int turn, int origin, int target, int mover, int placed) {
    n->piece[origin] = NONE;
    n->piece[target] = (unsigned char)placed;
    n->bb[mover] ^= BIT(origin);
    n->bb[placed] ^= BIT(target);
    n->side[turn] ^= BIT(origin) | BIT(target);
}

/* play.py's play() into `n` (a copy of `p`): code -1 is the null move. An ordinary move
 * (all but castling and en passant) changes the bitboards by exclusive-or and the
 * evaluation by the mover's two squares' difference; the phase changes only with a capture
 * or a promotion. */
static void make(const Pos *p, Pos *n, int code) {
    *n = *p;
    int turn = p->turn;
    n->ep = -1;
    n->turn = !turn;
    if (code < 0)
        return;
    int origin = FROM(code), target = TO(code), promotion = PROMOTION(code);
    u64 from_bb = BIT(origin), to_bb = BIT(target);
    int mover = piece_type_at(p, origin);
    u64 rights = p->castling & ~to_bb & ~from_bb;
    if (mover == KING) {
        rights &= turn ? ~RANK_1 : ~RANK_8;
        if ((from_bb & (BIT(4) | BIT(60))) && (target - origin == 2 || origin - target == 2)) {
            int rook_from = target > origin ? origin + 3 : origin - 4;
            int rook_to = target > origin ? origin + 1 : origin - 1;
            remove_piece(n, turn, KING, origin);
            add_piece(n, turn, KING, target);
            remove_piece(n, turn, ROOK, rook_from);
            add_piece(n, turn, ROOK, rook_to);
            n->castling = rights & ~BIT(rook_from);
            return;
        }
    }
    n->castling = rights;
    if (to_bb & p->side[!turn]) {
        int victim = piece_type_at(p, target);
        n->bb[victim] ^= to_bb;
        n->side[!turn] ^= to_bb;
        n->pair -= square_pair[!turn][victim][target];
        n->phase -= phase_weight[victim];
    } else if (mover == PAWN) {
        int step = target - origin;
        if (step == 16 && origin >> 3 == 1)
            n->ep = origin + 8;
        else if (step == -16 && origin >> 3 == 6)
            n->ep = origin - 8;
        else if (target == p->ep && (step == 7 || step == 9 || step == -7 || step == -9))
            remove_piece(n, !turn, PAWN, turn ? p->ep - 8 : p->ep + 8);
    }
    int placed = promotion ? promotion : mover;
    move_piece(n, turn, origin, target, mover, placed);
    n->pair += square_pair[turn][placed][target] - square_pair[turn][mover][origin];
    if (promotion)
        n->phase += phase_weight[promotion] - phase_weight[PAWN];
}

/* Python's floor division by FULL_PHASE moved onto unsigned numbers, where dividing by a
 * constant is a multiply and shifts with no fix-up for a negative dividend: (x + 24 K) // 24
 * is x // 24 + K exactly, and |x| < 24 * 2^31 (a 32-bit spread, a phase of 0-24) is far
 * below 24 K. */
#define FLOOR_OFFSET (1LL << 40)

/* evaluation.score from the material sums' pair and the phase, for the side `turn`:
 * (mg * phase + eg * (24 - phase)) // 24 is eg + ((mg - eg) * phase) // 24. */
static inline long tapered(long long pair, int phase, int turn) {
    int eg = (int)(unsigned)(unsigned long long)pair;     /* the low half, signed */
    long spread = (long)((pair - eg) >> 32);              /* mg - eg */
    if (phase > FULL_PHASE)
        phase = FULL_PHASE;
    long value = eg + (long)((unsigned long)(spread * phase + FULL_PHASE * FLOOR_OFFSET) / FULL_PHASE)
                 - FLOOR_OFFSET;
    return turn ? value : -value;
}

/* evaluation.score: the tapered score for the side to move. */
static inline long evaluate(const Pos *p) { return tapered(p->pair, p->phase, p->turn); }


/* The material sums' pair and the phase of the position a capture or a promotion (the
 * quiescence search's moves, never castling) leads to, the position not made: the victim's
 * entries read without a test, an empty square's piece (NONE) having none (setup leaves
 * its rows zero). */
typedef struct {
    long long pair;
    int phase;
} Material;

static inline Material capture_material(const Pos *p, int code) {
    int turn = p->turn, origin = FROM(code), target = TO(code), promotion = PROMOTION(code);
    int mover = piece_type_at(p, origin), victim = piece_type_at(p, target);
    long long pair = p->pair - square_pair[!turn][victim][target];
    int phase = p->phase - phase_weight[victim];
    if (mover == PAWN && target == p->ep) {          /* en passant: the pawn passed by */
        pair -= square_pair[!turn][PAWN][turn ? target - 8 : target + 8];
        phase -= phase_weight[PAWN];
    }
    int placed = promotion ? promotion : mover;
    pair += square_pair[turn][placed][target] - square_pair[turn][mover][origin];
    if (promotion)
        phase += phase_weight[promotion] - phase_weight[PAWN];
    return (Material){pair, phase};
}

/* child_evaluation of a capture or a promotion. */
static inline long capture_evaluation(const Pos *p, int code) {
    Material m = capture_material(p, code);
    return tapered(m.pair, m.phase, !p->turn);
}

/* evaluate() of the position `code` (-1: the null move) leads to, the position not made:
 * make's changes to the material sums and the phase alone. A horizon leaf's quiescence
 * often ends at its stand pat, and then its move need not be played. Castling moves two
 * pieces; any other move is capture_material's: a quiet move's target holds no piece
 * (NONE, no entries), and no pawn pushes straight onto the en passant square (the pawn
 * that passed it stands in the way). */
static long child_evaluation(const Pos *p, int code) {
    int turn = p->turn;
    if (code < 0)
        return tapered(p->pair, p->phase, !turn);
    int origin = FROM(code), target = TO(code), step = target - origin;
    if (piece_type_at(p, origin) == KING && (BIT(origin) & (BIT(4) | BIT(60)))
            && (step == 2 || step == -2)) {
        int rook_from = step > 0 ? origin + 3 : origin - 4, rook_to = step > 0 ? origin + 1 : origin - 1;
        long long pair = p->pair + square_pair[turn][KING][target] - square_pair[turn][KING][origin]
                         + square_pair[turn][ROOK][rook_to] - square_pair[turn][ROOK][rook_from];
        return tapered(pair, p->phase, !turn);
    }
    return capture_evaluation(p, code);
}

/* make for a capture or a promotion whose capture_material is `m`: no castling, no double
 * step; the victim taken off without a test, as clearing an empty square's bit changes
 * nothing (its piece, NONE, has a bitboard that stays empty). */
static inline void make_capture(const Pos *p, Pos *n, int code, Material m) {
    *n = *p;
    int turn = p->turn, origin = FROM(code), target = TO(code), promotion = PROMOTION(code);
    u64 from_bb = BIT(origin), to_bb = BIT(target);
    int mover = piece_type_at(p, origin), victim = piece_type_at(p, target);
    n->ep = -1;
    n->turn = !turn;
    u64 rights = p->castling & ~to_bb & ~from_bb;
    if (mover == KING)
        rights &= turn ? ~RANK_1 : ~RANK_8;
    n->castling = rights;
    n->bb[victim] &= ~to_bb;
    n->side[!turn] &= ~to_bb;
    if (mover == PAWN && target == p->ep) {
        int taken = turn ? target - 8 : target + 8;
        n->piece[taken] = NONE;
        n->bb[PAWN] &= ~BIT(taken);
        n->side[!turn] &= ~BIT(taken);
    }
    int placed = promotion ? promotion : mover;
    move_piece(n, turn, origin, target, mover, placed);
    n->pair = m.pair;
    n->phase = m.phase;
}

#endif
