/* Chess positions as a search tree, compiled: the twin of ChessTree in tree.py.
 *
 * The Python tree spends its time in python-chess's bitboards on Python integers, its
 * position-record cache and the calls between them; here a node is a copy of a small
 * struct, and the frame's calls (moves, push, pop, key, value, child_quiesce) are one C
 * call each. Everything mirrors tree.py and the modules under it, so that a search counts
 * the same nodes in the same order:
 * - the legal moves in python-chess's generation order (Board.generate_legal_moves: its
 *   pseudo-legal order, or its check evasions' order in check, filtered by its _is_safe
 *   rules; en passant by playing it), castling as the king's two-square move;
 * - MVV-LVA as movegen.mvv_lva (10 * (victim + promotion) - attacker, ties by from, to,
 *   promotion), killers and history as ChessTree._dynamic_order and ChessTree.cutoff;
 * - play.py's make (castling rights cleaned at the root, a move only removes rights);
 * - the evaluation of evaluation.py, from its tables (handed over by setup(): data, not
 *   code), carried incrementally;
 * - ChessTree.quiesce (stand pat, captures and promotions in MVV-LVA order, fail-soft);
 * - keys equal to tree.position_key's tuple: a small Key object whose hash is CPython's
 *   hash of that tuple (so the table's slots are the same) and whose equality compares
 *   the same fields.
 * Moves are ints, movegen.move_code (from | to << 6 | promotion << 12); None is the null
 * move. Standard chess only (compiled.py gives chess960 boards the Python tree).
 * tests/test_chess_compiled.py compares the two trees method by method and search by
 * search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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
static long mate_score;
static PyObject *move_ints[MOVE_CODES];  /* the ints moves() hands out */
static PyObject *QNODES;                  /* "qnodes" */
static int ready = 0;

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

/* ---- move generation, in python-chess's order ----------------------------------------- */

typedef struct {
    int codes[MAX_MOVES];
    int count;
} MoveList;

static inline void push_code(MoveList *out, int code) {
    if (out->count < MAX_MOVES)
        out->codes[out->count++] = code;
}

static inline u64 piece_attacks(const Pos *p, int square, u64 occupied) {
    switch (p->piece[square]) {
    case KNIGHT: return knight_attacks[square];
    case KING: return king_attacks[square];
    case BISHOP: return bishop_attacks(square, occupied);
    case ROOK: return rook_attacks(square, occupied);
    case QUEEN: return bishop_attacks(square, occupied) | rook_attacks(square, occupied);
    default: return 0;
    }
}

static int attacked_for_king(const Pos *p, u64 path, u64 occupied) {
    for (; path; path &= path - 1)
        if (attackers(p, !p->turn, lsb(path), occupied))
            return 1;
    return 0;
}

/* Board.generate_castling_moves (standard chess; the rights are clean). */
static void castling_moves(const Pos *p, u64 from_mask, u64 to_mask, MoveList *out) {
    int turn = p->turn;
    u64 backrank = turn ? RANK_1 : RANK_8;
    u64 king = p->side[turn] & p->bb[KING] & backrank & from_mask;
    king &= -king;
    if (!king)
        return;
    int king_sq = lsb(king);
    u64 occupied = occupancy(p);
    for (u64 candidates = p->castling & backrank & to_mask; candidates;) {
        int candidate = msb(candidates);
        candidates &= ~BIT(candidate);
        u64 rook = BIT(candidate);
        int a_side = rook < king;
        u64 king_to = (a_side ? FILE_C : FILE_G) & backrank;
        u64 rook_to = (a_side ? FILE_D : FILE_F) & backrank;
        u64 king_path = between[king_sq][msb(king_to)], rook_path = between[candidate][msb(rook_to)];
        if (!(((occupied ^ king ^ rook) & (king_path | rook_path | king_to | rook_to))
              || attacked_for_king(p, king_path | king, occupied ^ king)
              || attacked_for_king(p, king_to, occupied ^ king ^ rook ^ rook_to))) {
            /* _from_chess960: the king's two-square move when it stands on e1/e8 */
            int to = candidate;
            if (king_sq == 4 || king_sq == 60)
                to = candidate > king_sq ? king_sq + 2 : king_sq - 2;
            push_code(out, CODE(king_sq, to, 0));
        }
    }
}

/* Board.generate_pseudo_legal_ep. */
static void ep_moves(const Pos *p, u64 from_mask, u64 to_mask, MoveList *out) {
    int ep = p->ep;
    if (ep <= 0 || !(BIT(ep) & to_mask) || (BIT(ep) & occupancy(p)))
        return;
    u64 capturers = p->bb[PAWN] & p->side[p->turn] & from_mask & pawn_attacks[!p->turn][ep]
                    & (p->turn ? RANK_5 : RANK_4);
    for (; capturers; capturers &= ~BIT(msb(capturers)))
        push_code(out, CODE(msb(capturers), ep, 0));
}

/* Board.generate_pseudo_legal_moves(from_mask, to_mask), pawn pushes only to push_mask
 * (python-chess: to_mask) and castling only if `castles`. */
static void pseudo_moves(const Pos *p, u64 from_mask, u64 to_mask, u64 push_mask, int castles,
                         MoveList *out) {
    int turn = p->turn;
    u64 us = p->side[turn], them = p->side[!turn], occupied = us | them;
    for (u64 origins = us & ~p->bb[PAWN] & from_mask; origins;) {
        int origin = msb(origins);
        origins &= ~BIT(origin);
        for (u64 targets = piece_attacks(p, origin, occupied) & ~us & to_mask; targets;) {
            int target = msb(targets);
            targets &= ~BIT(target);
            push_code(out, CODE(origin, target, 0));
        }
    }
    if (castles && (from_mask & p->bb[KING]))
        castling_moves(p, from_mask, to_mask, out);
    u64 pawns = p->bb[PAWN] & us & from_mask;
    if (!pawns)
        return;
    for (u64 origins = pawns; origins;) {
        int origin = msb(origins);
        origins &= ~BIT(origin);
        for (u64 targets = pawn_attacks[turn][origin] & them & to_mask; targets;) {
            int target = msb(targets);
            targets &= ~BIT(target);
            if (BIT(target) & BACK_RANKS)
                for (int i = 0; i < 4; i++)
                    push_code(out, CODE(origin, target, PROMOTIONS[i]));
            else
                push_code(out, CODE(origin, target, 0));
        }
    }
    u64 single, twice;
    int step;
    if (turn) {
        single = pawns << 8 & ~occupied;
        twice = single << 8 & ~occupied & (RANK_3 | RANK_4);
        step = -8;
    } else {
        single = pawns >> 8 & ~occupied;
        twice = single >> 8 & ~occupied & (RANK_6 | RANK_5);
        step = 8;
    }
    single &= push_mask;
    twice &= push_mask;
    for (; single; single &= ~BIT(msb(single))) {
        int target = msb(single), origin = target + step;
        if (BIT(target) & BACK_RANKS)
            for (int i = 0; i < 4; i++)
                push_code(out, CODE(origin, target, PROMOTIONS[i]));
        else
            push_code(out, CODE(origin, target, 0));
    }
    for (; twice; twice &= ~BIT(msb(twice))) {
        int target = msb(twice);
        push_code(out, CODE(target + 2 * step, target, 0));
    }
    if (p->ep > 0)
        ep_moves(p, from_mask, to_mask, out);
}

/* Board._generate_evasions(king, checkers). */
static void evasions(const Pos *p, int king, u64 checkers, MoveList *out) {
    int turn = p->turn;
    u64 sliders = checkers & (p->bb[BISHOP] | p->bb[ROOK] | p->bb[QUEEN]);
    u64 attacked = 0;
    for (u64 s = sliders; s; s &= s - 1)
        attacked |= line_through[king][lsb(s)] & ~BIT(lsb(s));
    for (u64 targets = king_attacks[king] & ~p->side[turn] & ~attacked; targets;) {
        int target = msb(targets);
        targets &= ~BIT(target);
        push_code(out, CODE(king, target, 0));
    }
    int checker = msb(checkers);
    if (BIT(checker) == checkers) {
        u64 target = between[king][checker] | checkers;
        pseudo_moves(p, ~p->bb[KING], target, target, 0, out);
        if (p->ep > 0 && !(BIT(p->ep) & target)) {
            int last_double = p->ep + (turn ? -8 : 8);
            if (last_double == checker)
                ep_moves(p, ALL_SQUARES, ALL_SQUARES, out);
        }
    }
}

/* Board._slider_blockers(king). */
static u64 slider_blockers(const Pos *p, int king) {
    u64 occupied = occupancy(p);
    u64 snipers = ((rook_attacks(king, 0) & (p->bb[ROOK] | p->bb[QUEEN]))
                   | (bishop_attacks(king, 0) & (p->bb[BISHOP] | p->bb[QUEEN]))) & p->side[!p->turn];
    u64 blockers = 0;
    for (; snipers; snipers &= snipers - 1) {
        u64 b = between[king][lsb(snipers)] & occupied;
        if (b && !(b & (b - 1)))
            blockers |= b;
    }
    return blockers & p->side[p->turn];
}

static inline int is_en_passant(const Pos *p, int code) {
    int from = FROM(code), to = TO(code), d = to > from ? to - from : from - to;
    return to == p->ep && (p->bb[PAWN] & BIT(from)) && (d == 7 || d == 9) && !(occupancy(p) & BIT(to));
}

/* Whether the side that played `code` from `p` left its king attacked (a legality test
 * by playing the move: en passant, whose rules python-chess writes out separately). */
static int leaves_king_attacked(const Pos *p, int code) {
    Pos n;
    make(p, &n, code);
    int king = king_square(&n, p->turn);
    return king >= 0 && attackers(&n, !p->turn, king, occupancy(&n)) != 0;
}

/* Keep the moves of `in` that Board._is_safe passes (en passant: by playing it). */
static void keep_safe(const Pos *p, int king, MoveList *in, MoveList *out) {
    u64 blockers = slider_blockers(p, king);
    u64 occupied = occupancy(p);
    out->count = 0;
    for (int i = 0; i < in->count; i++) {
        int code = in->codes[i], from = FROM(code), to = TO(code), safe;
        if (from == king) {
            int d = to - from;
            if (d == 2 || d == -2)                               /* castling */
                safe = 1;
            else
                safe = !attackers(p, !p->turn, to, occupied);
        } else if (is_en_passant(p, code)) {
            safe = !leaves_king_attacked(p, code);
        } else {
            safe = !(blockers & BIT(from)) || (line_through[from][to] & BIT(king));
        }
        if (safe)
            out->codes[out->count++] = code;
    }
}

/* Board.generate_legal_moves(), in its order. */
static void legal_moves(const Pos *p, MoveList *out) {
    MoveList candidates;
    candidates.count = 0;
    int king = king_square(p, p->turn);
    if (king < 0) {                         /* no king: every pseudo-legal move */
        out->count = 0;
        pseudo_moves(p, ALL_SQUARES, ALL_SQUARES, ALL_SQUARES, 1, out);
        return;
    }
    u64 checkers = attackers(p, !p->turn, king, occupancy(p));
    if (checkers)
        evasions(p, king, checkers, &candidates);
    else
        pseudo_moves(p, ALL_SQUARES, ALL_SQUARES, ALL_SQUARES, 1, &candidates);
    keep_safe(p, king, &candidates, out);
}

static inline int is_tactical(const Pos *p, int code) {
    return PROMOTION(code) || (p->side[!p->turn] & BIT(TO(code))) || is_en_passant(p, code);
}

/* MVV-LVA (movegen.mvv_lva): the tactical moves of codes[0:count] sorted into tactical[]
 * (returns how many), the others into quiet[] in their order (if quiet is not NULL). */
static int split_tactical(const Pos *p, const int *codes, int count, int *tactical, int *quiet,
                          int *quiet_count) {
    long long keys[MAX_MOVES];
    int n = 0, q = 0;
    u64 them = p->side[!p->turn];
    for (int i = 0; i < count; i++) {
        int code = codes[i], to = TO(code), promotion = PROMOTION(code), victim;
        if (them & BIT(to))
            victim = piece_type_at(p, to);
        else if (to == p->ep && (p->bb[PAWN] & BIT(FROM(code))))
            victim = PAWN;
        else if (promotion)
            victim = NONE;
        else {
            if (quiet != NULL)
                quiet[q++] = code;
            continue;
        }
        long score = piece_values[piece_type_at(p, FROM(code))]
                     - 10 * (piece_values[victim] + piece_values[promotion]);
        long long key = (long long)(score + (1L << 30)) << 20
                        | (long long)FROM(code) << 12 | TO(code) << 6 | promotion;
        int j = n++;
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            tactical[j] = tactical[j - 1];
            j--;
        }
        keys[j] = key;
        tactical[j] = code;
    }
    if (quiet_count != NULL)
        *quiet_count = q;
    return n;
}

/* The legal captures and promotions in MVV-LVA order (ChessTree._qmoves). */
static int quiescence_moves(const Pos *p, int *sorted) {
    MoveList candidates, legal;
    candidates.count = 0;
    int king = king_square(p, p->turn);
    if (king < 0 || attackers(p, !p->turn, king, occupancy(p))) {
        legal_moves(p, &legal);
    } else {
        u64 them = p->side[!p->turn];
        pseudo_moves(p, ALL_SQUARES, them, BACK_RANKS, 0, &candidates);   /* (no en passant: */
        ep_moves(p, ALL_SQUARES, ALL_SQUARES, &candidates);               /* not to `them`) */
        keep_safe(p, king, &candidates, &legal);
    }
    return split_tactical(p, legal.codes, legal.count, sorted, NULL, NULL);
}

static int has_legal_en_passant(const Pos *p) {
    if (p->ep < 0)
        return 0;
    MoveList ep;
    ep.count = 0;
    ep_moves(p, ALL_SQUARES, ALL_SQUARES, &ep);
    for (int i = 0; i < ep.count; i++)
        if (!leaves_king_attacked(p, ep.codes[i]))
            return 1;
    return 0;
}

static long long perft(const Pos *p, int depth) {
    if (depth <= 0)
        return 1;
    MoveList moves;
    legal_moves(p, &moves);
    if (depth == 1)
        return moves.count;
    long long total = 0;
    Pos n;
    for (int i = 0; i < moves.count; i++) {
        make(p, &n, moves.codes[i]);
        total += perft(&n, depth - 1);
    }
    return total;
}

/* ---- keys ------------------------------------------------------------------------------ */

/* CPython's hash of a tuple (Objects/tupleobject.c, 3.8 and later) of ints. */
#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL
#define XXROTATE(x) ((x << 31) | (x >> 33))
#define HASH_MODULUS ((1ULL << 61) - 1)

static inline u64 hash_unsigned(u64 x) {         /* hash(x) of an int 0 <= x < 2**64 */
    u64 h = (x & HASH_MODULUS) + (x >> 61);
    if (h >= HASH_MODULUS)
        h -= HASH_MODULUS;
    return h;
}

static inline u64 hash_small(long x) {           /* hash(x) of a small int */
    return x == -1 ? (u64)-2 : (u64)x;
}

typedef struct {
    PyObject_HEAD
    u64 bb[8];             /* pawns, knights, bishops, rooks, queens, kings, white, black */
    u64 castling;
    int turn, ep;          /* ep: -1 when no en passant capture is legal */
    Py_hash_t hash;
} KeyObject;

static PyTypeObject KeyType;

static PyObject *Key_fields(KeyObject *k, PyObject *unused) {
    return Py_BuildValue("(KKKKKKKKOKi)", k->bb[0], k->bb[1], k->bb[2], k->bb[3], k->bb[4],
                         k->bb[5], k->bb[6], k->bb[7], k->turn ? Py_True : Py_False, k->castling,
                         k->ep);
}

static PyObject *make_key(const Pos *p) {
    KeyObject *k = PyObject_New(KeyObject, &KeyType);
    if (k == NULL)
        return NULL;
    for (int i = 0; i < 6; i++)
        k->bb[i] = p->bb[i + 1];
    k->bb[6] = p->side[1];
    k->bb[7] = p->side[0];
    k->turn = p->turn;
    k->castling = p->castling;
    k->ep = has_legal_en_passant(p) ? p->ep : -1;
    u64 acc = XXPRIME_5;
    u64 lanes[11];
    for (int i = 0; i < 8; i++)
        lanes[i] = hash_unsigned(k->bb[i]);
    lanes[8] = (u64)k->turn;
    lanes[9] = hash_unsigned(k->castling);
    lanes[10] = hash_small(k->ep);
    for (int i = 0; i < 11; i++) {
        acc += lanes[i] * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    acc += 11 ^ (XXPRIME_5 ^ 3527539UL);
    if (acc == (u64)-1)
        acc = 1546275796;
    k->hash = (Py_hash_t)acc;
    return (PyObject *)k;
}

static Py_hash_t Key_hash(KeyObject *k) { return k->hash; }

static PyObject *Key_richcompare(PyObject *a, PyObject *b, int op) {
    if (op != Py_EQ && op != Py_NE)
        Py_RETURN_NOTIMPLEMENTED;
    if (!PyObject_TypeCheck(b, &KeyType) || !PyObject_TypeCheck(a, &KeyType)) {
        if (!PyTuple_Check(b))
            Py_RETURN_NOTIMPLEMENTED;
        PyObject *fields = Key_fields((KeyObject *)a, NULL);   /* a Key against a tuple */
        if (fields == NULL)
            return NULL;
        PyObject *result = PyObject_RichCompare(fields, b, op);
        Py_DECREF(fields);
        return result;
    }
    KeyObject *x = (KeyObject *)a, *y = (KeyObject *)b;
    int equal = x->hash == y->hash && x->turn == y->turn && x->ep == y->ep
                && x->castling == y->castling && memcmp(x->bb, y->bb, sizeof x->bb) == 0;
    if (equal == (op == Py_EQ))
        Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

static PyObject *Key_repr(KeyObject *k) {
    PyObject *fields = Key_fields(k, NULL);
    if (fields == NULL)
        return NULL;
    PyObject *repr = PyUnicode_FromFormat("Key%R", fields);
    Py_DECREF(fields);
    return repr;
}

static PyMethodDef Key_methods[] = {
    {"fields", (PyCFunction)Key_fields, METH_NOARGS,
     "The tuple tree.position_key gives: 8 bitboards, turn, castling, en passant (-1: none)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.chess._board.Key",
    .tp_doc = PyDoc_STR("A position's key: equal to, and hashed as, tree.position_key's tuple."),
    .tp_basicsize = sizeof(KeyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_hash = (hashfunc)Key_hash,
    .tp_richcompare = Key_richcompare,
    .tp_repr = (reprfunc)Key_repr,
    .tp_methods = Key_methods,
};

/* ---- the tree -------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int ply;
    int mvv_lva, killers_on, history_on;
    PyObject *ordering;
    int path[MAX_PLY];               /* the move into each ply (path[ply - 1]), -1: null */
    int killers[MAX_PLY][2];
    int killer_count[MAX_PLY];
    int killer_plies;                /* len(ChessTree._killers) */
    int overflow;                    /* quiescence ran out of stack (a board no game holds) */
    long long history[64][64];
    Pos stack[MAX_PLY];
} Tree;

static inline Pos *here(Tree *t) { return &t->stack[t->ply]; }

static int read_ordering(Tree *t, PyObject *ordering) {
    const char *names[3] = {"mvv_lva", "killers", "history"};
    int values[3];
    for (int i = 0; i < 3; i++) {
        PyObject *value = PyObject_GetAttrString(ordering, names[i]);
        if (value == NULL)
            return 0;
        values[i] = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (values[i] < 0)
            return 0;
    }
    t->mvv_lva = values[0];
    t->killers_on = values[1];
    t->history_on = values[2];
    Py_INCREF(ordering);
    Py_XSETREF(t->ordering, ordering);
    return 1;
}

static void clear_dynamic(Tree *t) {
    t->killer_plies = 0;
    memset(t->history, 0, sizeof t->history);
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"pawns", "knights", "bishops", "rooks", "queens", "kings", "white",
                               "black", "turn", "castling", "ep", "ordering", NULL};
    unsigned long long fields[8], castling;
    int turn, ep;
    PyObject *ordering;
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "_board.setup() was not called");
        return NULL;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "KKKKKKKKpKiO", keywords, &fields[0], &fields[1],
                                     &fields[2], &fields[3], &fields[4], &fields[5], &fields[6],
                                     &fields[7], &turn, &castling, &ep, &ordering))
        return NULL;
    if (ep < -1 || ep > 63) {
        PyErr_SetString(PyExc_ValueError, "ep must be a square or -1");
        return NULL;
    }
    Tree *t = (Tree *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    Pos *p = &t->stack[0];
    memset(p, 0, sizeof *p);
    for (int color = 0; color < 2; color++) {
        u64 mine = fields[7 - color];             /* black (7) for 0, white (6) for 1 */
        for (int type_ = PAWN; type_ <= KING; type_++)
            for (u64 b = fields[type_ - 1] & mine; b; b &= b - 1)
                add_piece(p, color, type_, lsb(b));
    }
    p->turn = turn;
    p->castling = castling;
    p->ep = ep;
    if (!read_ordering(t, ordering)) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static void Tree_dealloc(Tree *t) {
    Py_XDECREF(t->ordering);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int read_code(PyObject *move, int *code) {
    if (move == Py_None) {
        *code = -1;
        return 1;
    }
    long c = PyLong_AsLong(move);
    if (c == -1 && PyErr_Occurred())
        return 0;
    if (c < 0 || c >= MOVE_CODES) {
        PyErr_Format(PyExc_ValueError, "%ld is not a move code", c);
        return 0;
    }
    *code = (int)c;
    return 1;
}

static int step_in(Tree *t, int code) {
    if (t->ply + 1 >= MAX_PLY - QUIESCENCE_RESERVE) {
        PyErr_SetString(PyExc_RecursionError, "the compiled chess tree is full (too many plies)");
        return 0;
    }
    Pos *p = here(t);
    if (code >= 0 && !(p->side[p->turn] & BIT(FROM(code)))) {
        PyErr_Format(PyExc_ValueError, "move code %d: no piece of the side to move on its square", code);
        return 0;
    }
    make(p, &t->stack[t->ply + 1], code);
    t->path[t->ply] = code;
    t->ply++;
    return 1;
}

static PyObject *Tree_push(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code) || !step_in(t, code))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tree_push_null(Tree *t, PyObject *unused) {
    if (!step_in(t, -1))
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tree_pop(Tree *t, PyObject *unused) {
    if (t->ply == 0) {
        PyErr_SetString(PyExc_IndexError, "pop at the root");
        return NULL;
    }
    t->ply--;
    Py_RETURN_NONE;
}

static PyObject *code_list(const int *codes, int count) {
    PyObject *list = PyList_New(count);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *move = move_ints[codes[i]];
        Py_INCREF(move);
        PyList_SET_ITEM(list, i, move);
    }
    return list;
}

static inline int contains(const int *codes, int count, int code) {
    for (int i = 0; i < count; i++)
        if (codes[i] == code)
            return 1;
    return 0;
}

/* ChessTree.moves: the static order (MVV-LVA split or generation order), then
 * _dynamic_order with killers or history. */
static PyObject *Tree_moves(Tree *t, PyObject *unused) {
    Pos *p = here(t);
    MoveList legal;
    legal_moves(p, &legal);
    int order[MAX_MOVES], tactical = 0, n = legal.count;
    if (t->mvv_lva) {
        int quiet[MAX_MOVES], quiet_count;
        tactical = split_tactical(p, legal.codes, n, order, quiet, &quiet_count);
        memcpy(order + tactical, quiet, quiet_count * sizeof(int));
    } else {
        memcpy(order, legal.codes, n * sizeof(int));
    }
    if ((t->killers_on || t->history_on) && n > 1) {
        int *rest = order + tactical, rest_count = n - tactical;
        if (t->history_on) {                          /* stable, most history first */
            for (int i = 1; i < rest_count; i++) {
                int code = rest[i], j = i;
                long long score = t->history[FROM(code)][TO(code)];
                while (j > 0 && t->history[FROM(rest[j - 1])][TO(rest[j - 1])] < score) {
                    rest[j] = rest[j - 1];
                    j--;
                }
                rest[j] = code;
            }
        }
        if (t->killers_on && t->ply < t->killer_plies) {
            int found[2], count = 0;
            for (int k = 0; k < t->killer_count[t->ply]; k++)
                if (contains(rest, rest_count, t->killers[t->ply][k]))
                    found[count++] = t->killers[t->ply][k];
            if (count) {
                int reordered[MAX_MOVES], m = 0;
                for (int k = 0; k < count; k++)
                    reordered[m++] = found[k];
                for (int i = 0; i < rest_count; i++)
                    if (!contains(found, count, rest[i]))
                        reordered[m++] = rest[i];
                memcpy(rest, reordered, rest_count * sizeof(int));
            }
        }
    }
    return code_list(order, n);
}

static PyObject *Tree_value(Tree *t, PyObject *unused) {
    return PyLong_FromLong(evaluate(here(t)));
}

static PyObject *Tree_child_value(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    Pos n;
    make(here(t), &n, code);
    return PyLong_FromLong(evaluate(&n));
}

static int in_check(const Pos *p) {
    int king = king_square(p, p->turn);
    return king >= 0 && attackers(p, !p->turn, king, occupancy(p)) != 0;
}

static PyObject *Tree_in_check(Tree *t, PyObject *unused) {
    return PyBool_FromLong(in_check(here(t)));
}

static PyObject *Tree_terminal_value(Tree *t, PyObject *unused) {
    return PyLong_FromLong(in_check(here(t)) ? -(mate_score - t->ply) : 0);
}

static PyObject *Tree_key(Tree *t, PyObject *unused) {
    return make_key(here(t));
}

static PyObject *Tree_key_tuple(Tree *t, PyObject *unused) {
    PyObject *key = make_key(here(t));
    if (key == NULL)
        return NULL;
    PyObject *fields = Key_fields((KeyObject *)key, NULL);
    Py_DECREF(key);
    return fields;
}

static PyObject *Tree_reset(Tree *t, PyObject *unused) {
    t->ply = 0;
    clear_dynamic(t);
    Py_RETURN_NONE;
}

/* ChessTree.cutoff: killers and history learn from quiet moves only. */
static PyObject *Tree_cutoff(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "cutoff(move, depth)");
        return NULL;
    }
    if (!t->killers_on && !t->history_on)
        Py_RETURN_NONE;
    int code;
    if (!read_code(args[0], &code))
        return NULL;
    long depth = PyLong_AsLong(args[1]);
    if (depth == -1 && PyErr_Occurred())
        return NULL;
    if (code < 0 || is_tactical(here(t), code))
        Py_RETURN_NONE;
    if (t->killers_on) {
        int ply = t->ply;
        while (t->killer_plies <= ply)
            t->killer_count[t->killer_plies++] = 0;
        int *slot = t->killers[ply];
        if (!contains(slot, t->killer_count[ply], code)) {
            slot[1] = slot[0];
            slot[0] = code;
            if (t->killer_count[ply] < 2)
                t->killer_count[ply]++;
        }
    }
    if (t->history_on)
        t->history[FROM(code)][TO(code)] += (long long)depth * depth;
    Py_RETURN_NONE;
}

static PyObject *Tree_set_ordering(Tree *t, PyObject *ordering) {
    int was = t->mvv_lva;
    if (!read_ordering(t, ordering))
        return NULL;
    if (t->mvv_lva != was) {                 /* as ChessTree: the MVV-LVA switch resets */
        t->ply = 0;
        clear_dynamic(t);
    }
    Py_RETURN_NONE;
}

/* ChessTree.null_allowed: never in check; `either`: neither of the last two plies was a
 * null move; otherwise (`both`): not both of them. */
static PyObject *Tree_null_allowed(Tree *t, PyObject *rule) {
    if (in_check(here(t)))
        Py_RETURN_FALSE;
    int either = PyUnicode_Check(rule) && PyUnicode_CompareWithASCIIString(rule, "either") == 0;
    int last = t->ply >= 1 && t->path[t->ply - 1] < 0;
    int before = t->ply >= 2 && t->path[t->ply - 2] < 0;
    int allowed = either ? !(last || before) : !(t->ply >= 2 && last && before);
    return PyBool_FromLong(allowed);
}

/* ChessTree.quiesce, with its qnodes counted in *qnodes. */
static long quiesce(Tree *t, long alpha, long beta, long long *qnodes) {
    Pos *p = here(t);
    long best = evaluate(p);
    if (best >= beta)
        return best;
    if (t->ply + 1 >= MAX_PLY) {     /* captures and promotions are finite: never on a real board */
        t->overflow = 1;
        return best;
    }
    int moves[MAX_MOVES];
    int n = quiescence_moves(p, moves);
    if (best > alpha)
        alpha = best;
    for (int i = 0; i < n; i++) {
        (*qnodes)++;
        make(p, &t->stack[t->ply + 1], moves[i]);
        t->path[t->ply] = moves[i];
        t->ply++;
        long v = -quiesce(t, -beta, -alpha, qnodes);
        t->ply--;
        if (v > best) {
            best = v;
            if (v >= beta)
                return v;
            if (v > alpha)
                alpha = v;
        }
    }
    return best;
}

static int add_qnodes(Tree *t, PyObject *counters, long long qnodes) {
    if (t->overflow) {
        t->overflow = 0;
        PyErr_SetString(PyExc_RecursionError, "the compiled chess tree's quiescence ran out of plies");
        return 0;
    }
    if (qnodes == 0)
        return 1;
    PyObject *old = PyObject_GetAttr(counters, QNODES);
    if (old == NULL)
        return 0;
    long long value = PyLong_AsLongLong(old);
    Py_DECREF(old);
    if (value == -1 && PyErr_Occurred())
        return 0;
    PyObject *new = PyLong_FromLongLong(value + qnodes);
    if (new == NULL)
        return 0;
    int failed = PyObject_SetAttr(counters, QNODES, new);
    Py_DECREF(new);
    return failed == 0;
}

static int read_window(PyObject *const *args, long *alpha, long *beta) {
    *alpha = PyLong_AsLong(args[0]);
    if (*alpha == -1 && PyErr_Occurred())
        return 0;
    *beta = PyLong_AsLong(args[1]);
    return !(*beta == -1 && PyErr_Occurred());
}

static PyObject *Tree_quiesce(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    long alpha, beta;
    long long qnodes = 0;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "quiesce(alpha, beta, counters)");
        return NULL;
    }
    if (!read_window(args, &alpha, &beta))
        return NULL;
    long value = quiesce(t, alpha, beta, &qnodes);
    if (!add_qnodes(t, args[2], qnodes))
        return NULL;
    return PyLong_FromLong(value);
}

static PyObject *Tree_child_quiesce(Tree *t, PyObject *const *args, Py_ssize_t nargs) {
    long alpha, beta;
    long long qnodes = 0;
    int code;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "child_quiesce(move, alpha, beta, counters)");
        return NULL;
    }
    if (!read_code(args[0], &code) || !read_window(args + 1, &alpha, &beta) || !step_in(t, code))
        return NULL;
    long value = quiesce(t, alpha, beta, &qnodes);
    t->ply--;
    if (!add_qnodes(t, args[3], qnodes))
        return NULL;
    return PyLong_FromLong(value);
}

static PyObject *Tree_perft(Tree *t, PyObject *depth) {
    long d = PyLong_AsLong(depth);
    if (d == -1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromLongLong(perft(here(t), (int)d));
}

static PyObject *Tree_move_name(Tree *t, PyObject *move) {
    int code;
    if (!read_code(move, &code))
        return NULL;
    if (code < 0)
        return PyUnicode_FromString("0000");
    static const char promotions[] = " pnbrqk";
    char name[6];
    int from = FROM(code), to = TO(code), promotion = PROMOTION(code);
    name[0] = 'a' + (from & 7);
    name[1] = '1' + (from >> 3);
    name[2] = 'a' + (to & 7);
    name[3] = '1' + (to >> 3);
    name[4] = promotion ? promotions[promotion] : '\0';
    name[5] = '\0';
    return PyUnicode_FromString(name);
}

static PyObject *Tree_get_ply(Tree *t, void *unused) { return PyLong_FromLong(t->ply); }

static PyObject *Tree_get_ordering(Tree *t, void *unused) {
    Py_INCREF(t->ordering);
    return t->ordering;
}

static PyGetSetDef Tree_getset[] = {
    {"ply", (getter)Tree_get_ply, NULL, "Distance from the root.", NULL},
    {"ordering", (getter)Tree_get_ordering, NULL, "Move-ordering switches (tree.Ordering).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define FAST(name) (PyCFunction)(void (*)(void))(name), METH_FASTCALL
static PyMethodDef Tree_methods[] = {
    {"moves", (PyCFunction)Tree_moves, METH_NOARGS, "The legal moves in search order."},
    {"push", (PyCFunction)Tree_push, METH_O, "Step into the child reached by a move (None: pass)."},
    {"pop", (PyCFunction)Tree_pop, METH_NOARGS, "Step back to the parent."},
    {"value", (PyCFunction)Tree_value, METH_NOARGS, "The static evaluation for the side to move."},
    {"child_value", (PyCFunction)Tree_child_value, METH_O, "value() of a child."},
    {"child_quiesce", FAST(Tree_child_quiesce), "quiesce() at a child, the cursor left here."},
    {"quiesce", FAST(Tree_quiesce), "Fail-soft quiescence search (qnodes into counters)."},
    {"terminal_value", (PyCFunction)Tree_terminal_value, METH_NOARGS, "Checkmate or stalemate."},
    {"key", (PyCFunction)Tree_key, METH_NOARGS, "The position's Key (tree.position_key's tuple)."},
    {"key_tuple", (PyCFunction)Tree_key_tuple, METH_NOARGS, "key() as tree.position_key's tuple."},
    {"move_name", (PyCFunction)Tree_move_name, METH_O, "A move in UCI."},
    {"reset", (PyCFunction)Tree_reset, METH_NOARGS, "Back to the root; killers and history forgotten."},
    {"cutoff", FAST(Tree_cutoff), "Learn from a fail-high (killers, history; quiet moves only)."},
    {"set_ordering", (PyCFunction)Tree_set_ordering, METH_O, "Switch move ordering between searches."},
    {"in_check", (PyCFunction)Tree_in_check, METH_NOARGS, "Whether the side to move is in check."},
    {"null_allowed", (PyCFunction)Tree_null_allowed, METH_O, "Whether a null move may be tried here."},
    {"push_null", (PyCFunction)Tree_push_null, METH_NOARGS, "Pass the move."},
    {"perft", (PyCFunction)Tree_perft, METH_O, "Leaf nodes of the full-width tree to a depth."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "harness.games.chess._board.ChessTree",
    .tp_doc = PyDoc_STR("ChessTree(pawns, knights, bishops, rooks, queens, kings, white, black, "
                        "turn, castling, ep, ordering)\n\nThe compiled twin of tree.ChessTree "
                        "(harness.games.chess.compiled builds it from a board)."),
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Tree_new,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
    .tp_getset = Tree_getset,
};

/* ---- the module ------------------------------------------------------------------------ */

static int read_table(PyObject *table, int (*out)[7][64]) {
    /* table[color][piece_type][square], color 0 black, 1 white; piece_type 1-6 */
    for (int color = 0; color < 2; color++) {
        PyObject *by_type = PySequence_GetItem(table, color);
        if (by_type == NULL)
            return 0;
        for (int type_ = PAWN; type_ <= KING; type_++) {
            PyObject *squares = PySequence_GetItem(by_type, type_);
            if (squares == NULL || PySequence_Size(squares) != 64) {
                Py_XDECREF(squares);
                Py_DECREF(by_type);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "expected 64 squares a piece type");
                return 0;
            }
            for (int s = 0; s < 64; s++) {
                PyObject *item = PySequence_GetItem(squares, s);
                long v = item == NULL ? -1 : PyLong_AsLong(item);
                Py_XDECREF(item);
                if (v == -1 && PyErr_Occurred()) {
                    Py_DECREF(squares);
                    Py_DECREF(by_type);
                    return 0;
                }
                out[color][type_][s] = (int)v;
            }
            Py_DECREF(squares);
        }
        Py_DECREF(by_type);
    }
    return 1;
}

static int read_small(PyObject *seq, long *out, int count) {
    if (PySequence_Size(seq) != count) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "expected %d numbers", count);
        return 0;
    }
    for (int i = 0; i < count; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        out[i] = item == NULL ? -1 : PyLong_AsLong(item);
        Py_XDECREF(item);
        if (out[i] == -1 && PyErr_Occurred())
            return 0;
    }
    return 1;
}

PyDoc_STRVAR(setup_doc,
"setup(middle_game, endgame, phase_weights, values, mate)\n\n"
"evaluation.py's tables: middle_game[color][piece_type][square] and endgame[...] (material\n"
"plus piece-square, White +, Black -; color 0 Black, 1 White), the phase weight and the\n"
"MVV-LVA value of piece types 0-6, and MATE.");

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *mg, *eg, *weights, *values;
    long mate, weight[7];
    if (!PyArg_ParseTuple(args, "OOOOl", &mg, &eg, &weights, &values, &mate))
        return NULL;
    if (!read_table(mg, square_mg) || !read_table(eg, square_eg) || !read_small(weights, weight, 7)
        || !read_small(values, piece_values, 7))
        return NULL;
    for (int i = 0; i < 7; i++)
        phase_weight[i] = (int)weight[i];
    mate_score = mate;
    ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_board",
    "The compiled chess tree (harness.games.chess.compiled).", -1, methods,
};

PyMODINIT_FUNC PyInit__board(void) {
    make_tables();
    if (PyType_Ready(&KeyType) < 0 || PyType_Ready(&TreeType) < 0)
        return NULL;
    QNODES = PyUnicode_InternFromString("qnodes");
    if (QNODES == NULL)
        return NULL;
    for (int code = 0; code < MOVE_CODES; code++)
        if ((move_ints[code] = PyLong_FromLong(code)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&KeyType);
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Key", (PyObject *)&KeyType) < 0
        || PyModule_AddObject(m, "ChessTree", (PyObject *)&TreeType) < 0)
        return NULL;
    return m;
}
