/* The board's geometry, shared by the compiled move generator (_movegen.c) and the
 * compiled chess tree (_board.c through board_position.h): squares as bits, ranks, piece
 * types in python-chess's numbering, and the attack and line tables both build at import.
 * Everything is static: each module has its own copy. */
#ifndef HARNESS_CHESS_BOARD_GEOMETRY_H
#define HARNESS_CHESS_BOARD_GEOMETRY_H

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
#define ALL_SQUARES 0xFFFFFFFFFFFFFFFFULL
#define MAX_MOVES 256

enum { NONE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
static const int PROMOTIONS[4] = {QUEEN, ROOK, BISHOP, KNIGHT};  /* python-chess's order */

static u64 knight_attacks[64], king_attacks[64], pawn_attacks[2][64];
static u64 line_through[64][64];   /* python-chess's ray(a, b): the whole line, or 0 */
static u64 between[64][64];        /* squares strictly between two aligned squares */

static u64 leaper(int square, const int (*offsets)[2], int count) {
    u64 attacks = 0;
    for (int i = 0; i < count; i++) {
        int file = (square & 7) + offsets[i][0], rank = (square >> 3) + offsets[i][1];
        if (file >= 0 && file < 8 && rank >= 0 && rank < 8)
            attacks |= BIT(rank * 8 + file);
    }
    return attacks;
}

/* The squares the pawns of the side to move (turn: 1 for White) push to, one step and two
 * on an empty path; returns the step from a target back to its origin. */
static inline int pawn_pushes(u64 pawns, u64 occupied, int turn, u64 *single, u64 *twice) {
    if (turn) {
        *single = pawns << 8 & ~occupied;
        *twice = *single << 8 & ~occupied & (RANK_3 | RANK_4);
        return -8;
    }
    *single = pawns >> 8 & ~occupied;
    *twice = *single >> 8 & ~occupied & (RANK_6 | RANK_5);
    return 8;
}

/* The leapers' attacks from every square, and the line through and the squares between
 * every two aligned squares. */
static void make_geometry(void) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int a = 0; a < 64; a++) {
        knight_attacks[a] = leaper(a, knight, 8);
        king_attacks[a] = leaper(a, king, 8);
        pawn_attacks[1][a] = leaper(a, white_pawn, 2);
        pawn_attacks[0][a] = leaper(a, black_pawn, 2);
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
            int file = a & 7, rank = a >> 3;       /* walk back to the edge, then across */
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

#endif
