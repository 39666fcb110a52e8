/* Кинг in the kernel: one deal's rules (engine/king/state.py), the normal player's card play
 * (engine/ai/king_policy.py) and the hard player's rollouts and surprise count (engine/ai/rollouts.py,
 * engine/ai/king_worlds.py). Only the play phase of one deal: a playout ends with the deal.
 */
#include <math.h>

#include "king.h"

enum { TRICKS = 0, JACKS = 1, QUEENS = 2, HEARTS_DEAL = 3, LAST_TWO = 4, KING_DEAL = 5, ERALASH = 6 };

static const int KING_OF_HEARTS = HEARTS * 13 + 11;
static const int ACE_OF_HEARTS = HEARTS * 13 + 12;

static int CARD_PEN[7][52];
static int TRICK_PEN[7][KING_TRICKS];
static const int NO_PEN[52];

/* engine.king.rules._card_penalties / _trick_penalties */
void king_init_tables(void) {
    for (int k = 0; k < 7; k++) {
        int eralash = k == ERALASH;
        for (int c = 0; c < 52; c++) {
            int rank = CARD_RANK(c), suit = CARD_SUIT(c), p = 0;
            if (rank < 7) {
                CARD_PEN[k][c] = 0;
                continue;
            }
            if ((eralash || k == JACKS) && rank == 11) p += 4;
            if ((eralash || k == QUEENS) && rank == 12) p += 4;
            if ((eralash || k == HEARTS_DEAL) && suit == HEARTS) p += 2;
            if ((eralash || k == KING_DEAL) && c == KING_OF_HEARTS) p += 16;
            CARD_PEN[k][c] = p;
        }
        int per_trick = (k == TRICKS || eralash) ? 2 : 0;
        int last_two = (k == LAST_TWO || eralash) ? 8 : 0;
        for (int n = 0; n < KING_TRICKS; n++) TRICK_PEN[k][n] = per_trick + (n >= KING_TRICKS - 2 ? last_two : 0);
    }
}

const int *king_card_penalty(int contract) { return contract < 0 ? NO_PEN : CARD_PEN[contract]; }

static int no_heart_lead(int contract) { return contract == HEARTS_DEAL || contract == KING_DEAL || contract == ERALASH; }
static int king_forced(int contract) { return contract == KING_DEAL || contract == ERALASH; }
static int can_stop(int contract) {
    return contract == JACKS || contract == QUEENS || contract == HEARTS_DEAL || contract == KING_DEAL;
}
static int trick_penalty(const KingState *s, int n) {
    return s->contract < 0 ? -3 : TRICK_PEN[s->contract][n]; /* a positive trick: +3, negated like a penalty */
}

/* engine.king.rules.beats */
static int beats(int card, int best, int trump) {
    if (CARD_SUIT(card) == CARD_SUIT(best)) return CARD_RANK(card) > CARD_RANK(best);
    return CARD_SUIT(card) == trump;
}

/* engine.king.rules.winning_play: the position in ``trick`` of the card taking it */
static int winning_at(const int *trick, int len, int trump) {
    int best = 0;
    for (int i = 1; i < len; i++)
        if (beats(trick[i], trick[best], trump)) best = i;
    return best;
}

/* KingState._legal_cards */
Mask king_legal(const KingState *s) {
    Mask hand = s->hand[s->current];
    if (s->trick_len == 0) {
        if (no_heart_lead(s->contract)) {
            Mask others = hand & ~SUIT_MASK(HEARTS);
            if (others) return others;
        }
        return hand;
    }
    int led = CARD_SUIT(s->trick[0]);
    Mask follow = hand & SUIT_MASK(led);
    int forced = king_forced(s->contract);
    if (follow) {
        if (forced && led == HEARTS && (follow & BIT(KING_OF_HEARTS)) && s->forced_on_heart_lead) {
            for (int i = 0; i < s->trick_len; i++)
                if (s->trick[i] == ACE_OF_HEARTS) return BIT(KING_OF_HEARTS);
        }
        return follow;
    }
    if (forced && (hand & BIT(KING_OF_HEARTS))) return BIT(KING_OF_HEARTS);
    if (s->trump >= 0) {
        Mask trumps = hand & SUIT_MASK(s->trump);
        if (trumps) return trumps;
    }
    return hand;
}

/* KingState._play (the deal's end stops the kernel: the next deal is never dealt here) */
void king_play(KingState *s, int card) {
    int p = s->current;
    s->hand[p] &= ~BIT(card);
    s->trick[s->trick_len++] = card;
    if (s->trick_len < KING_PLAYERS) {
        s->current = (p + 1) & 3;
        return;
    }
    int winner = (s->leader + winning_at(s->trick, KING_PLAYERS, s->trump)) & 3;
    const int *pen = king_card_penalty(s->contract);
    int card_points = pen[s->trick[0]] + pen[s->trick[1]] + pen[s->trick[2]] + pen[s->trick[3]];
    int points = trick_penalty(s, s->trick_no) + card_points;
    s->points[winner] -= points;
    s->remaining -= card_points;
    s->trick_len = 0;
    s->trick_no += 1;
    s->leader = s->current = winner;
    if (s->trick_no == KING_TRICKS ||
        (s->remaining == 0 && s->stop_when_decided && s->contract >= 0 && can_stop(s->contract)))
        s->over = 1;
}

/* ------------------------------------------------------------------------------- the normal policy */

typedef struct {
    Mask hand;
    Mask legal;
    Mask out; /* the outstanding cards: in the other players' hands */
    const int *trick;
    int trick_len;
    int contract;
    int trump;
    int tricks_done;
} Table;

static Mask above(int card) { return SUIT_MASK(CARD_SUIT(card)) & ~((BIT(card) << 1) - 1); }
static Mask below(int card) { return SUIT_MASK(CARD_SUIT(card)) & (BIT(card) - 1); }
static int higher_out(const Table *t, int card) { return POPCOUNT(t->out & above(card)); }
static int lower_out(const Table *t, int card) { return POPCOUNT(t->out & below(card)); }
static int suit_count(Mask hand, int suit) { return POPCOUNT(hand & SUIT_MASK(suit)); }

/* king_policy._keep_danger */
static double keep_danger(const Table *t, int card, const int *pen) {
    int lower = lower_out(t, card);
    int higher = higher_out(t, card);
    double danger = 3.0 * pen[card];
    if (lower)
        danger += (CARD_RANK(card) - 6) * (higher == 0 ? 1.0 : 0.6) + 0.4 * lower;
    else
        danger += 0.1 * (CARD_RANK(card) - 6);
    return danger - 0.3 * suit_count(t->hand, CARD_SUIT(card));
}

/* king_policy._pick_negative */
static int pick_negative(const Table *t) {
    const int *pen = CARD_PEN[t->contract];
    const int *tp = TRICK_PEN[t->contract];
    int tpen = t->tricks_done < KING_TRICKS ? tp[t->tricks_done] : 0;
    int pen_out = 0;
    for (Mask m = t->out; m; m &= m - 1) pen_out += pen[LOWEST(m)];
    int future = pen_out;
    for (int n = t->tricks_done; n < KING_TRICKS; n++) future += tp[n];
    Mask legal = t->legal;
    if (t->trick_len) {
        int led = CARD_SUIT(t->trick[0]);
        int best = t->trick[winning_at(t->trick, t->trick_len, -1)];
        int after = KING_PLAYERS - 1 - t->trick_len;
        int trick_cost = tpen;
        for (int i = 0; i < t->trick_len; i++) trick_cost += pen[t->trick[i]];
        Mask follow = legal & SUIT_MASK(led);
        if (!follow) {
            /* max by (danger, rank, -index): the first of the highest */
            int pick = -1;
            double pick_danger = 0.0;
            for (Mask m = legal; m; m &= m - 1) {
                int c = LOWEST(m);
                double d = keep_danger(t, c, pen);
                if (pick < 0 || d > pick_danger || (d == pick_danger && CARD_RANK(c) > CARD_RANK(pick))) {
                    pick = c;
                    pick_danger = d;
                }
            }
            return pick;
        }
        Mask under = follow & below(best);
        if (under) { /* max by (penalty, rank) */
            int pick = -1;
            for (Mask m = under; m; m &= m - 1) {
                int c = LOWEST(m);
                if (pick < 0 || pen[c] > pen[pick] || (pen[c] == pen[pick] && CARD_RANK(c) > CARD_RANK(pick)))
                    pick = c;
            }
            return pick;
        }
        double dump_risk = after ? pen_out * 0.15 * after : 0.0;
        int pick = -1;
        if (after == 0 || trick_cost + dump_risk < 0.5) { /* max by (-penalty, rank) */
            for (Mask m = follow; m; m &= m - 1) {
                int c = LOWEST(m);
                if (pick < 0 || -pen[c] > -pen[pick] || (pen[c] == pen[pick] && CARD_RANK(c) > CARD_RANK(pick)))
                    pick = c;
            }
            return pick;
        }
        for (Mask m = follow; m; m &= m - 1) { /* min by (penalty, rank) */
            int c = LOWEST(m);
            if (pick < 0 || pen[c] < pen[pick] || (pen[c] == pen[pick] && CARD_RANK(c) < CARD_RANK(pick)))
                pick = c;
        }
        return pick;
    }
    int best_card = LOWEST(legal);
    double best_score = INFINITY;
    double shed_weight = future ? 0.15 : 0.0;
    for (Mask m = legal; m; m &= m - 1) {
        int c = LOWEST(m);
        int higher = higher_out(t, c), lower = lower_out(t, c);
        double p_win, dump;
        if (higher + lower == 0) {
            p_win = 1.0;
            dump = pen_out * 0.5;
        } else if (higher == 0) {
            p_win = 1.0;
            dump = pen_out * 0.1;
        } else if (lower == 0) {
            p_win = 0.0;
            dump = 0.0;
        } else {
            p_win = (double)lower / (double)(higher + lower) * 0.6;
            dump = pen_out * 0.05;
        }
        int own = pen[c];
        double score = p_win * ((double)(tpen + own) + dump) - (1.0 - p_win) * own * 0.5;
        score -= shed_weight * (CARD_RANK(c) - 7) * (p_win == 0.0 ? 1.0 : 0.2);
        score += 0.05 * suit_count(t->hand, CARD_SUIT(c));
        if (score < best_score) {
            best_card = c;
            best_score = score;
        }
    }
    return best_card;
}

/* king_policy._pick_positive; ``first_min`` keys are compared as tuples, the first card wins a tie */
static int pick_positive(const Table *t) {
    int trump = t->trump;
    Mask legal = t->legal;
    Mask trump_mask = trump >= 0 ? SUIT_MASK(trump) : 0;
    if (t->trick_len) {
        int best = t->trick[winning_at(t->trick, t->trick_len, trump)];
        int after = KING_PLAYERS - 1 - t->trick_len;
        Mask winners = 0;
        for (Mask m = legal; m; m &= m - 1)
            if (beats(LOWEST(m), best, trump)) winners |= BIT(LOWEST(m));
        if (winners) {
            Mask pool = 0;
            if (after == 0) {
                pool = winners;
            } else {
                for (Mask m = winners; m; m &= m - 1)
                    if (higher_out(t, LOWEST(m)) == 0) pool |= BIT(LOWEST(m));
            }
            if (pool) { /* min by (is trump, rank) */
                int pick = -1;
                for (Mask m = pool; m; m &= m - 1) {
                    int c = LOWEST(m);
                    int kt = (trump_mask & BIT(c)) != 0, kp = pick >= 0 && (trump_mask & BIT(pick)) != 0;
                    if (pick < 0 || kt < kp || (kt == kp && CARD_RANK(c) < CARD_RANK(pick))) pick = c;
                }
                return pick;
            }
            Mask ruffs = CARD_SUIT(best) != trump ? winners & trump_mask : 0;
            if (ruffs) {
                int pick = -1;
                for (Mask m = ruffs; m; m &= m - 1)
                    if (pick < 0 || CARD_RANK(LOWEST(m)) < CARD_RANK(pick)) pick = LOWEST(m);
                return pick;
            }
        }
        /* min by (is trump, is a boss, rank) */
        int pick = -1, pk1 = 0, pk2 = 0;
        for (Mask m = legal; m; m &= m - 1) {
            int c = LOWEST(m);
            int k1 = (trump_mask & BIT(c)) != 0, k2 = higher_out(t, c) == 0;
            if (pick < 0 || k1 < pk1 || (k1 == pk1 && (k2 < pk2 || (k2 == pk2 && CARD_RANK(c) < CARD_RANK(pick))))) {
                pick = c;
                pk1 = k1;
                pk2 = k2;
            }
        }
        return pick;
    }
    Mask trumps = t->hand & trump_mask;
    int trumps_out = trump >= 0 ? POPCOUNT(t->out & trump_mask) : 0;
    Mask bosses = 0;
    for (Mask m = legal; m; m &= m - 1)
        if (higher_out(t, LOWEST(m)) == 0) bosses |= BIT(LOWEST(m));
    Mask trump_bosses = bosses & trump_mask;
    if (trump_bosses && trumps_out) { /* max by rank */
        int pick = -1;
        for (Mask m = trump_bosses; m; m &= m - 1)
            if (pick < 0 || CARD_RANK(LOWEST(m)) > CARD_RANK(pick)) pick = LOWEST(m);
        return pick;
    }
    Mask side_bosses = 0;
    for (Mask m = bosses & ~trump_mask; m; m &= m - 1)
        if (t->out & SUIT_MASK(CARD_SUIT(LOWEST(m)))) side_bosses |= BIT(LOWEST(m));
    if (side_bosses) { /* max by (cards of the suit out, rank) */
        int pick = -1, pk = 0;
        for (Mask m = side_bosses; m; m &= m - 1) {
            int c = LOWEST(m);
            int k = POPCOUNT(t->out & SUIT_MASK(CARD_SUIT(c)));
            if (pick < 0 || k > pk || (k == pk && CARD_RANK(c) > CARD_RANK(pick))) {
                pick = c;
                pk = k;
            }
        }
        return pick;
    }
    if (trumps && trumps_out && POPCOUNT(trumps) > trumps_out) {
        int pick = -1;
        for (Mask m = trumps; m; m &= m - 1)
            if (pick < 0 || CARD_RANK(LOWEST(m)) < CARD_RANK(pick)) pick = LOWEST(m);
        return pick;
    }
    Mask side = legal & ~trump_mask;
    if (side) { /* min by (cards of the suit in my hand, rank) */
        int pick = -1, pk = 0;
        for (Mask m = side; m; m &= m - 1) {
            int c = LOWEST(m);
            int k = suit_count(t->hand, CARD_SUIT(c));
            if (pick < 0 || k < pk || (k == pk && CARD_RANK(c) < CARD_RANK(pick))) {
                pick = c;
                pk = k;
            }
        }
        return pick;
    }
    int pick = -1;
    for (Mask m = legal; m; m &= m - 1)
        if (pick < 0 || CARD_RANK(LOWEST(m)) < CARD_RANK(pick)) pick = LOWEST(m);
    return pick;
}

/* king_policy.pick_card over the cards ``legal`` (the legal cards of ``s``, or some of them): the normal
 * player's choice among them */
static int policy_among(const KingState *s, Mask legal) {
    if (POPCOUNT(legal) == 1) return LOWEST(legal);
    int me = s->current;
    Table t;
    t.hand = s->hand[me];
    t.legal = legal;
    t.out = 0;
    for (int p = 0; p < KING_PLAYERS; p++)
        if (p != me) t.out |= s->hand[p];
    t.trick = s->trick;
    t.trick_len = s->trick_len;
    t.contract = s->contract;
    t.trump = s->trump;
    t.tricks_done = s->trick_no;
    return s->contract < 0 ? pick_positive(&t) : pick_negative(&t);
}

/* king_policy.policy_action (the play phase): the normal player's card in a full state */
int king_policy(const KingState *s) { return policy_among(s, king_legal(s)); }

/* king_worlds.play_rank: where ``card`` comes in the normal player's order of preference over ``legal`` (0: its
 * choice; each next place, its choice with the cards already placed taken from its hand) */
int king_play_rank(const KingState *s, Mask legal, int card) {
    KingState t = *s;
    int rank = 0;
    while (POPCOUNT(legal) > 1) {
        int pick = policy_among(&t, legal);
        if (pick == card || !(legal & BIT(pick))) return rank;
        legal &= ~BIT(pick);
        t.hand[t.current] &= ~BIT(pick);
        rank++;
    }
    return rank;
}

/* rollouts.king_rollout: play the deal to its end; at ``me``'s turns with a choice, ``depth`` > 0 tries
 * every legal card (each followed by a rollout of ``depth - 1``) and plays the best for ``me`` (the first of
 * equals); everybody else, and ``me`` at depth 0, plays the normal policy. Returns ``me``'s deal points. */
int king_rollout(KingState *s, int me, int depth, long *steps) {
    while (!s->over) {
        int card;
        Mask legal;
        if (depth > 0 && s->current == me && POPCOUNT(legal = king_legal(s)) > 1) {
            int best_value = 0;
            card = -1;
            for (Mask m = legal; m; m &= m - 1) {
                KingState trial = *s;
                king_play(&trial, LOWEST(m));
                *steps += 1;
                int v = king_rollout(&trial, me, depth - 1, steps);
                if (card < 0 || v > best_value) {
                    card = LOWEST(m);
                    best_value = v;
                }
            }
        } else {
            card = king_policy(s);
        }
        king_play(s, card);
        *steps += 1;
    }
    return s->points[me];
}

/* king_worlds.surprises: replay the deal's plays in the world ``s`` (dealt as at the deal's start); a play of
 * another player who had a choice and whose normal policy picks another card counts once; -(i + 1) where
 * play i is not legal (or the deal is already over) */
int king_surprises(KingState *s, int me, const int *plays, int count) {
    int surprises = 0;
    for (int i = 0; i < count; i++) {
        int card = plays[i];
        Mask legal = s->over ? 0 : king_legal(s);
        if (card < 0 || card > 51 || !(legal & BIT(card))) return -(i + 1); /* not a play of this deal */
        if (s->current != me && POPCOUNT(legal) > 1 && king_policy(s) != card) surprises++;
        king_play(s, card);
    }
    return surprises;
}

/* king_worlds.play_loglik: the log-likelihood of the others' plays of the deal in the world ``s`` (dealt as at the
 * deal's start) under the normal policy made stochastic: a player with n legal cards plays the one of place r
 * in its order of preference with odds exp(-r * beta) / sum(exp(-k * beta), k < n), ``lognorm[n]`` the log of
 * that sum. -INFINITY where a play is not legal in the world. */
double king_play_loglik(KingState *s, int me, const int *plays, int count, double beta, const double *lognorm) {
    double loglik = 0.0;
    for (int i = 0; i < count; i++) {
        int card = plays[i];
        Mask legal = s->over ? 0 : king_legal(s);
        if (card < 0 || card > 51 || !(legal & BIT(card))) return -INFINITY;
        int n = POPCOUNT(legal);
        if (s->current != me && n > 1) loglik += -(double)king_play_rank(s, legal, card) * beta - lognorm[n];
        king_play(s, card);
    }
    return loglik;
}
