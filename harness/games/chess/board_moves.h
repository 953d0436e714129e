/* Legal move generation in python-chess's order, check, MVV-LVA and perft for the compiled
 * chess tree (_board.c, the only file that includes this, after board_position.h). */
#ifndef HARNESS_CHESS_BOARD_MOVES_H
#define HARNESS_CHESS_BOARD_MOVES_H

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
        u64 king_path = between[king_sq][msb(king_to)];
        u64 rook_path = between[candidate][msb(rook_to)];
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
    int step = pawn_pushes(pawns, occupied, turn, &single, &twice);
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

/* The other side's sliders on the empty-board lines of the king on `king`: the only ones
 * that may check it or pin a piece to it. */
static inline u64 king_snipers(const Pos *p, int king) {
    return ((rook_rays[king] & (p->bb[ROOK] | p->bb[QUEEN]))
            | (bishop_rays[king] & (p->bb[BISHOP] | p->bb[QUEEN]))) & p->side[!p->turn];
}

/* Board._slider_blockers(king), for the enemy sliders on the king's empty-board lines. */
static u64 sniped_blockers(const Pos *p, int king, u64 snipers) {
    u64 occupied = occupancy(p);
    u64 blockers = 0;
    for (; snipers; snipers &= snipers - 1) {
        u64 b = between[king][lsb(snipers)] & occupied;
        if (b && !(b & (b - 1)))
            blockers |= b;
    }
    return blockers & p->side[p->turn];
}

/* Whether the side to move's king, on `king`, is attacked (attackers() of the other side);
 * if not, its slider blockers (slider_blockers) into *blockers: the enemy sliders on the
 * king's lines looked at once for both. */
static inline int checked_else_blockers(const Pos *p, int king, u64 *blockers) {
    int turn = p->turn;
    u64 enemy = p->side[!turn];
    if (((knight_attacks[king] & p->bb[KNIGHT]) | (pawn_attacks[turn][king] & p->bb[PAWN])
         | (king_attacks[king] & p->bb[KING])) & enemy)
        return 1;
    u64 snipers = king_snipers(p, king);
    u64 occupied = occupancy(p), found = 0;
    for (; snipers; snipers &= snipers - 1) {
        u64 b = between[king][lsb(snipers)] & occupied;
        if (!b)
            return 1;                               /* nothing between: a check */
        if (!(b & (b - 1)))
            found |= b;
    }
    *blockers = found & p->side[turn];
    return 0;
}

/* Board._slider_blockers(king): none (most nodes) without a call. */
static inline u64 slider_blockers(const Pos *p, int king) {
    u64 snipers = king_snipers(p, king);
    return snipers ? sniped_blockers(p, king, snipers) : 0;
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
    out->count = 0;
    if (in->count == 0)           /* (many quiescence nodes have no capture to check) */
        return;
    u64 blockers = slider_blockers(p, king);
    u64 occupied = occupancy(p);
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

/* Whether the side to move is in check (ChessTree.in_check). */
static int in_check(const Pos *p) {
    int king = king_square(p, p->turn);
    return king >= 0 && attackers(p, !p->turn, king, occupancy(p)) != 0;
}

/* ChessTree.tactical: a capture or a promotion (what killers and history never learn), or a
 * move that gives check: what the selective switches never prune or reduce. */
static int is_forcing(const Pos *p, int code) {
    if (is_tactical(p, code))
        return 1;
    Pos n;
    make(p, &n, code);
    return in_check(&n);
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

#define INTERRUPT_DEPTH 4   /* perft asks whether to stop at nodes this far from the leaves */

/* Leaf nodes of the full-width tree to `depth`, the last ply bulk-counted (a position one
 * ply from the end adds its number of legal moves, none of them made); -1 as soon as
 * `interrupted()` says so, which is asked at the nodes INTERRUPT_DEPTH or more plies from
 * the leaves (a few hundred times a second: a depth-4 subtree takes milliseconds). */
static long long perft(const Pos *p, int depth, int (*interrupted)(void)) {
    if (depth <= 0)
        return 1;
    if (depth >= INTERRUPT_DEPTH && interrupted())
        return -1;
    MoveList moves;
    legal_moves(p, &moves);
    if (depth == 1)
        return moves.count;
    long long total = 0;
    Pos n;
    for (int i = 0; i < moves.count; i++) {
        make(p, &n, moves.codes[i]);
        long long below = perft(&n, depth - 1, interrupted);
        if (below < 0)
            return -1;
        total += below;
    }
    return total;
}

#endif
