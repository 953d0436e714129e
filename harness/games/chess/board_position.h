/* Chess positions for the compiled chess tree (_board.c, the only file that includes this):
 * attack tables, the position (bitboards, a piece on each square, castling rights, en
 * passant, the evaluation carried incrementally), play.py's make and evaluation.score.
 * Included after Python.h; everything is static (one translation unit). */
#ifndef HARNESS_CHESS_BOARD_POSITION_H
#define HARNESS_CHESS_BOARD_POSITION_H

#include <stdint.h>

typedef uint64_t u64;

#define BIT(s) (1ULL << (s))
#define RANK_1 0x00000000000000FFULL
#define RANK_3 0x0000000000FF0000ULL
#define RANK_4 0x00000000FF000000ULL
#define RANK_5 0x000000FF00000000ULL
#define RANK_6 0x0000FF0000000000ULL
#define RANK_8 0xFF00000000000000ULL
#define BACK_RANKS (RANK_1 | RANK_8)
#define FILE_C 0x0404040404040404ULL
#define FILE_D 0x0808080808080808ULL
#define FILE_F 0x2020202020202020ULL
#define FILE_G 0x4040404040404040ULL
#define ALL_SQUARES 0xFFFFFFFFFFFFFFFFULL
#define MAX_MOVES 256
#define MAX_PLY 1024             /* positions on the stack */
#define QUIESCENCE_RESERVE 64    /* plies kept free for quiescence (at most 46: captures and promotions) */
#define MOVE_CODES (6 << 12)
#define FULL_PHASE 24

enum { NONE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
static const int PROMOTIONS[4] = {QUEEN, ROOK, BISHOP, KNIGHT};  /* python-chess's order */

static inline int msb(u64 b) { return 63 - __builtin_clzll(b); }
static inline int lsb(u64 b) { return __builtin_ctzll(b); }

/* ---- tables ---------------------------------------------------------------------------- */

static u64 knight_attacks[64], king_attacks[64], pawn_attacks[2][64];
static u64 line_through[64][64];   /* python-chess's ray(a, b): the whole line, or 0 */
static u64 between[64][64];        /* squares strictly between two aligned squares */
static u64 rays[8][64];            /* from a square (excluded) to the edge, by direction */
static const int STEPS[8][2] = {{0, 1}, {1, 1}, {1, 0}, {-1, 1},       /* increasing squares */
                                {0, -1}, {-1, -1}, {-1, 0}, {1, -1}};  /* decreasing */

/* evaluation.py's tables, from setup(): material plus piece-square, White +, Black -. */
static int square_mg[2][7][64], square_eg[2][7][64];
static int phase_weight[7];
static long piece_values[7];       /* middle-game material, for MVV-LVA */

static u64 leaper(int square, const int (*offsets)[2], int count) {
    u64 attacks = 0;
    for (int i = 0; i < count; i++) {
        int file = (square & 7) + offsets[i][0], rank = (square >> 3) + offsets[i][1];
        if (file >= 0 && file < 8 && rank >= 0 && rank < 8)
            attacks |= BIT(rank * 8 + file);
    }
    return attacks;
}

static void make_tables(void) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int a = 0; a < 64; a++) {
        knight_attacks[a] = leaper(a, knight, 8);
        king_attacks[a] = leaper(a, king, 8);
        pawn_attacks[1][a] = leaper(a, white_pawn, 2);
        pawn_attacks[0][a] = leaper(a, black_pawn, 2);
        for (int d = 0; d < 8; d++) {
            u64 ray = 0;
            for (int f = (a & 7) + STEPS[d][0], r = (a >> 3) + STEPS[d][1];
                 f >= 0 && f < 8 && r >= 0 && r < 8; f += STEPS[d][0], r += STEPS[d][1])
                ray |= BIT(r * 8 + f);
            rays[d][a] = ray;
        }
        for (int b = 0; b < 64; b++) {
            line_through[a][b] = between[a][b] = 0;
            if (a == b)
                continue;
            int df = (b & 7) - (a & 7), dr = (b >> 3) - (a >> 3);
            int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
            if (!(df == 0 || dr == 0 || adf == adr))
                continue;
            int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
            u64 line = 0;
            int file = a & 7, rank = a >> 3;
            while (file - sf >= 0 && file - sf < 8 && rank - sr >= 0 && rank - sr < 8) {
                file -= sf;
                rank -= sr;
            }
            while (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
                line |= BIT(rank * 8 + file);
                file += sf;
                rank += sr;
            }
            line_through[a][b] = line;
            u64 inner = 0;
            for (int f = (a & 7) + sf, r = (a >> 3) + sr; r * 8 + f != b; f += sf, r += sr)
                inner |= BIT(r * 8 + f);
            between[a][b] = inner;
        }
    }
}

static inline u64 ray_attacks(int d, int square, u64 occupied) {
    u64 ray = rays[d][square], blockers = ray & occupied;
    if (blockers)
        ray ^= rays[d][d < 4 ? lsb(blockers) : msb(blockers)];
    return ray;
}

static inline u64 rook_attacks(int s, u64 occ) {
    return ray_attacks(0, s, occ) | ray_attacks(2, s, occ) | ray_attacks(4, s, occ) | ray_attacks(6, s, occ);
}

static inline u64 bishop_attacks(int s, u64 occ) {
    return ray_attacks(1, s, occ) | ray_attacks(3, s, occ) | ray_attacks(5, s, occ) | ray_attacks(7, s, occ);
}

/* ---- positions ------------------------------------------------------------------------- */

typedef struct {
    u64 bb[7];             /* by piece type (index 0 unused) */
    u64 side[2];           /* black (0), white (1) */
    u64 castling;          /* python-chess's castling_rights, cleaned */
    int turn;              /* 1: White to move */
    int ep;                /* python-chess's ep_square, -1 for None */
    int mg, eg, phase;     /* evaluation.material_sum, unpacked */
    unsigned char piece[64];   /* the piece type on each square (NONE: empty) */
} Pos;

static inline int piece_type_at(const Pos *p, int square) { return p->piece[square]; }

/* python-chess's _attackers_mask(color, square, occupied). */
static inline u64 attackers(const Pos *p, int color, int square, u64 occupied) {
    u64 queens = p->bb[QUEEN];
    u64 found = (king_attacks[square] & p->bb[KING]) | (knight_attacks[square] & p->bb[KNIGHT])
        | (pawn_attacks[!color][square] & p->bb[PAWN]);
    u64 rq = (p->bb[ROOK] | queens) & p->side[color], bq = (p->bb[BISHOP] | queens) & p->side[color];
    if (rq) found |= rook_attacks(square, occupied) & rq;
    if (bq) found |= bishop_attacks(square, occupied) & bq;
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
    p->mg += square_mg[color][type][square];
    p->eg += square_eg[color][type][square];
    p->phase += phase_weight[type];
}

static inline void remove_piece(Pos *p, int color, int type, int square) {
    p->piece[square] = NONE;
    p->bb[type] &= ~BIT(square);
    p->side[color] &= ~BIT(square);
    p->mg -= square_mg[color][type][square];
    p->eg -= square_eg[color][type][square];
    p->phase -= phase_weight[type];
}

#define CODE(from, to, promotion) ((from) | (to) << 6 | (promotion) << 12)
#define FROM(code) ((code) & 63)
#define TO(code) ((code) >> 6 & 63)
#define PROMOTION(code) ((code) >> 12)

/* play.py's play() into `n` (a copy of `p`): code -1 is the null move. */
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
    remove_piece(n, turn, mover, origin);
    if (to_bb & p->side[!turn]) {
        remove_piece(n, !turn, piece_type_at(p, target), target);
    } else if (mover == PAWN) {
        int step = target - origin;
        if (step == 16 && origin >> 3 == 1)
            n->ep = origin + 8;
        else if (step == -16 && origin >> 3 == 6)
            n->ep = origin - 8;
        else if (target == p->ep && (step == 7 || step == 9 || step == -7 || step == -9))
            remove_piece(n, !turn, PAWN, turn ? p->ep - 8 : p->ep + 8);
    }
    add_piece(n, turn, promotion ? promotion : mover, target);
    n->castling = rights;
}

/* evaluation.score: the tapered score for the side to move (floor division, as Python). */
static inline long evaluate(const Pos *p) {
    int phase = p->phase > FULL_PHASE ? FULL_PHASE : p->phase;
    long total = (long)p->mg * phase + (long)p->eg * (FULL_PHASE - phase);
    long value = total / FULL_PHASE;
    if (total % FULL_PHASE != 0 && total < 0)
        value -= 1;
    return p->turn ? value : -value;
}

#endif
