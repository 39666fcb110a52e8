/* Кончинка in the kernel: the rules of one deal (engine/konchinka/state.py, captures.py, scoring.py), the
 * normal player's scoring of actions (engine/ai/konchinka.py: score_actions, exposure, best_sums,
 * rank_chances, worth_table) and the hard player's value and rollouts (expected_edge, KonchinkaModel.value,
 * engine/ai/rollouts.py). A playout ends with the deal: the next deal's shuffle is Python's to make.
 *
 * A table of more than 16 cards (the engine then lists captures by value patterns, in another order) or a
 * position with more than KON_MAX_ACTIONS actions is declined (KON_DECLINED): the caller plays that world in
 * Python instead, so a declined world costs time, never a different result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "konchinka.h"

enum { JACK_VALUE = 11, MAX_CLASSIC_PIP = 10, SECURE_CARDS = 27, SECURE_CLUBS = 7, HAND_SIZE = 4 };
enum { INDEX_CAP = 4096, TOTAL_CARDS = 52, TOTAL_CLUBS = 13, MAX_TARGET = 1000 };

static const double WORTH_CARD = 0.12, WORTH_CLUB = 0.14, WORTH_KONCHINKA = 1.0, JACK_KEEP = 0.35;
static const double CARD_SPREAD = 2.5, CLUB_SPREAD = 1.5;

static int VALUE[52];
static const Mask CLUBS_MASK = (Mask)0x1FFF;
static const Mask KONCHINKI_MASK = ((Mask)1 << 0) | ((Mask)1 << 21); /* 2♣, 10♦ */

typedef struct {
    double card[52];
    double capturer[15];
} Worth;

static Worth WORTH[2][2]; /* [cards still open][clubs still open] */

/* engine.ai.konchinka.worth_table, for the four states of the cards and clubs points */
void kon_init_tables(void) {
    for (int c = 0; c < 52; c++) {
        int rank = CARD_RANK(c);
        VALUE[c] = rank == 14 ? 1 : rank;
    }
    for (int cards_open = 0; cards_open < 2; cards_open++) {
        for (int clubs_open = 0; clubs_open < 2; clubs_open++) {
            Worth *w = &WORTH[cards_open][clubs_open];
            double card_w = cards_open ? WORTH_CARD : 0.0, club_w = clubs_open ? WORTH_CLUB : 0.0;
            for (int c = 0; c < 52; c++) {
                double x = card_w;
                if (CARD_SUIT(c) == CLUBS) x += club_w;
                if (BIT(c) & KONCHINKI_MASK) x += WORTH_KONCHINKA;
                w->card[c] = x;
            }
            for (int r = 0; r < 15; r++) w->capturer[r] = 0.0;
            for (int r = 2; r <= 14; r++) {
                double total = 0.0;
                for (int s = 0; s < 4; s++) total += w->card[s * 13 + r - 2];
                w->capturer[r] = total / 4.0;
            }
        }
    }
}

static const Worth *worth_of(const KonState *s) {
    int max_cards = 0, max_clubs = 0;
    for (int p = 0; p < s->n; p++) {
        if (s->cards[p] > max_cards) max_cards = s->cards[p];
        if (s->clubs[p] > max_clubs) max_clubs = s->clubs[p];
    }
    return &WORTH[max_cards < SECURE_CARDS][max_clubs < SECURE_CLUBS];
}

/* ----------------------------------------------------------------------------------- capture groups */

typedef struct {
    Mask masks[KON_TOTALS][INDEX_CAP];
    int len[KON_TOTALS];
} GroupIndex;

/* captures.build_index (index_add for each table card in order); 0 when a list outgrows INDEX_CAP */
static int build_index(const KonState *s, GroupIndex *index) {
    int top = s->points_variant ? 13 : MAX_CLASSIC_PIP;
    memset(index->len, 0, sizeof index->len);
    for (int k = 0; k < s->table_len; k++) {
        int c = s->table[k];
        int w = VALUE[c];
        Mask b = BIT(c);
        if (s->points_variant || w <= MAX_CLASSIC_PIP) {
            for (int src = top - w; src > 0; src--) {
                int found = index->len[src];
                if (!found) continue;
                if (index->len[src + w] + found > INDEX_CAP) return 0;
                Mask *to = index->masks[src + w] + index->len[src + w];
                for (int i = 0; i < found; i++) to[i] = index->masks[src][i] | b;
                index->len[src + w] += found;
            }
        }
        if (index->len[w] + 1 > INDEX_CAP) return 0;
        index->masks[w][index->len[w]++] = b;
    }
    return 1;
}

/* captures.multi_unions: every union of pairwise disjoint groups, in discovery order */
static int multi_unions(const Mask *groups, int count, Mask *out, int cap) {
    int n = 0;
    for (int g = 0; g < count; g++) {
        Mask group = groups[g];
        int before = n;
        int seen_group = 0;
        for (int i = 0; i < before; i++)
            if (out[i] == group) seen_group = 1;
        Mask fresh[KON_MAX_ACTIONS];
        int fresh_n = 0;
        for (int i = 0; i < before; i++)
            if (!(out[i] & group)) fresh[fresh_n++] = out[i] | group;
        if (!seen_group) {
            if (n >= cap) return -1;
            out[n++] = group;
        }
        for (int i = 0; i < fresh_n; i++) {
            int known = 0;
            for (int j = 0; j < n && !known; j++) known = out[j] == fresh[i];
            if (!known) {
                if (n >= cap) return -1;
                out[n++] = fresh[i];
            }
        }
    }
    return n;
}

/* scoring.secured_points */
static int secured(const KonState *s, int seat) {
    int points = s->konch[seat];
    if (s->clubs[seat] >= SECURE_CLUBS) points += 1;
    if (s->cards[seat] >= SECURE_CARDS) points += 2;
    return points;
}

/* KonchinkaState._finishes_with */
static int finishes_with(const KonState *s, int seat, int sec) {
    if (!s->early_finish || s->status != KON_RUNNING) return 0;
    int total = s->totals[seat];
    if (s->target - total > 2) return 0;
    if (sec <= 0) return 0;
    int new_total = total + sec;
    if (new_total < s->target) return 0;
    for (int p = 0; p < s->n; p++)
        if (p != seat && !(new_total > s->totals[p])) return 0;
    return 1;
}

/* KonchinkaState.can_finish */
static int can_finish(const KonState *s, int seat) { return finishes_with(s, seat, secured(s, seat)); }

/* KonchinkaState.can_finish_with: the finish right after taking the cards of ``mask`` */
static int can_finish_with(const KonState *s, int seat, Mask mask) {
    int points = s->konch[seat] + POPCOUNT(mask & KONCHINKI_MASK);
    if (s->clubs[seat] + POPCOUNT(mask & CLUBS_MASK) >= SECURE_CLUBS) points += 1;
    if (s->cards[seat] + POPCOUNT(mask) >= SECURE_CARDS) points += 2;
    return finishes_with(s, seat, points);
}

struct KonScratch {
    GroupIndex index;
    Mask unions[KON_MAX_ACTIONS];
};

KonScratch *kon_scratch_new(void) { return malloc(sizeof(KonScratch)); }

void kon_scratch_free(KonScratch *w) { free(w); }

/* KonchinkaState.legal_actions: per hand card its captures then its lay; Finish last */
int kon_legal(const KonState *s, KonScratch *w, KonAction *out, int *count) {
    int seat = s->current;
    Mask hand = s->hand[seat];
    int n = 0;
    int finish_from = s->early_finish ? s->target - 2 : MAX_TARGET + 1;
    int may_finish = s->totals[seat] >= finish_from; /* «взять … и прикончить» after a capture */
    if (s->table_len == 0) {
        for (Mask m = hand; m; m &= m - 1) out[n++] = (KonAction){KON_LAY, LOWEST(m), 0};
    } else {
        if (s->table_len > KON_INDEX_LIMIT) return KON_DECLINED;
        GroupIndex *index = &w->index;
        if (!build_index(s, index)) return KON_DECLINED;
        int sweep_value = s->points_variant ? -1 : JACK_VALUE;
        int any_capture = 0;
        Mask table_mask = 0;
        for (int k = 0; k < s->table_len; k++) table_mask |= BIT(s->table[k]);
        for (Mask m = hand; m; m &= m - 1) {
            int c = LOWEST(m);
            int v = VALUE[c];
            if (v == sweep_value) {
                if (n + 3 > KON_MAX_ACTIONS) return KON_DECLINED;
                out[n++] = (KonAction){KON_CAPTURE, c, table_mask};
                if (may_finish && can_finish_with(s, seat, table_mask | BIT(c)))
                    out[n++] = (KonAction){KON_CAPTURE_FINISH, c, table_mask};
                any_capture = 1;
            } else if (index->len[v]) {
                any_capture = 1;
                const Mask *masks = index->masks[v];
                int count_v = index->len[v];
                if (s->multi && count_v > 1) {
                    count_v = multi_unions(masks, count_v, w->unions, KON_MAX_ACTIONS);
                    if (count_v < 0) return KON_DECLINED;
                    masks = w->unions;
                }
                if (n + 2 * count_v + 2 > KON_MAX_ACTIONS) return KON_DECLINED;
                for (int i = 0; i < count_v; i++) {
                    out[n++] = (KonAction){KON_CAPTURE, c, masks[i]};
                    if (may_finish && can_finish_with(s, seat, masks[i] | BIT(c)))
                        out[n++] = (KonAction){KON_CAPTURE_FINISH, c, masks[i]};
                }
            }
            if (n + 2 > KON_MAX_ACTIONS) return KON_DECLINED; /* room for this lay and a Finish */
            out[n++] = (KonAction){KON_LAY, c, 0};
        }
        if (any_capture && s->forced) {
            int kept = 0;
            for (int i = 0; i < n; i++)
                if (out[i].kind != KON_LAY) out[kept++] = out[i];
            n = kept;
        }
    }
    if (may_finish && can_finish(s, seat)) out[n++] = (KonAction){KON_FINISH, -1, 0};
    *count = n;
    return KON_OK;
}

/* -------------------------------------------------------------------------------------- transitions */

static int strict_winner(const int *values, int n) {
    int best = values[0], at = 0, ties = 1;
    for (int p = 1; p < n; p++) {
        if (values[p] > best) {
            best = values[p];
            at = p;
            ties = 1;
        } else if (values[p] == best) {
            ties++;
        }
    }
    return ties == 1 ? at : -1;
}

static void take(KonState *s, int seat, Mask mask) {
    s->cards[seat] += POPCOUNT(mask);
    s->clubs[seat] += POPCOUNT(mask & CLUBS_MASK);
    s->konch[seat] += POPCOUNT(mask & KONCHINKI_MASK);
}

/* KonchinkaState._end_deal (the party's end, or a stop where the next deal would be dealt) */
static void end_deal(KonState *s) {
    if (s->table_len) {
        Mask left = 0;
        for (int k = 0; k < s->table_len; k++) left |= BIT(s->table[k]);
        if (s->last_capturer >= 0) take(s, s->last_capturer, left);
        s->table_len = 0;
    }
    int points[KON_MAX_PLAYERS] = {0};
    int cw = strict_winner(s->cards, s->n), clw = strict_winner(s->clubs, s->n);
    if (cw >= 0) points[cw] += 2;
    if (clw >= 0) points[clw] += 1;
    for (int p = 0; p < s->n; p++) {
        points[p] += s->konch[p];
        s->totals[p] += points[p];
        s->deal_points[p] = points[p];
        s->deal_cards[p] = s->cards[p];
        s->deal_clubs[p] = s->clubs[p];
    }
    s->status = KON_DEAL_OVER;
    int top = s->totals[0];
    for (int p = 1; p < s->n; p++)
        if (s->totals[p] > top) top = s->totals[p];
    if (top >= s->target) {
        int winner = strict_winner(s->totals, s->n);
        if (winner >= 0) {
            s->status = KON_PARTY_OVER;
            s->winner = winner;
            s->current = -1;
        }
    }
}

/* KonchinkaState._after_round */
static void after_round(KonState *s) {
    if (s->deck_pos < s->deck_len) {
        for (int i = 1; i <= s->n; i++) {
            int seat = (s->dealer + i) % s->n;
            Mask hand = 0;
            for (int k = 0; k < HAND_SIZE && s->deck_pos < s->deck_len; k++) hand |= BIT(s->deck[s->deck_pos++]);
            s->hand[seat] = hand;
        }
        return;
    }
    end_deal(s);
}

/* KonchinkaState._finish_early */
static void finish_early(KonState *s, int seat) {
    for (int p = 0; p < s->n; p++) {
        s->deal_points[p] = 0;
        s->deal_cards[p] = s->cards[p];
        s->deal_clubs[p] = s->clubs[p];
    }
    int sec = secured(s, seat);
    s->deal_points[seat] = sec;
    s->totals[seat] += sec;
    s->status = KON_PARTY_OVER;
    s->winner = seat;
    s->current = -1;
}

/* KonchinkaState.apply, for an action of kon_legal */
void kon_apply(KonState *s, const KonAction *a) {
    int seat = s->current;
    if (a->kind == KON_FINISH) {
        finish_early(s, seat);
        return;
    }
    s->hand[seat] &= ~BIT(a->card);
    if (a->kind == KON_LAY) {
        s->table[s->table_len++] = a->card;
    } else {
        int kept = 0;
        for (int k = 0; k < s->table_len; k++)
            if (!(BIT(s->table[k]) & a->taken)) s->table[kept++] = s->table[k];
        s->table_len = kept;
        take(s, seat, a->taken | BIT(a->card));
        s->last_capturer = seat;
        if (a->kind == KON_CAPTURE_FINISH) {
            finish_early(s, seat);
            return;
        }
    }
    int next = seat + 1 == s->n ? 0 : seat + 1;
    s->current = next;
    if (!s->hand[next]) after_round(s);
}

/* ------------------------------------------------------------------------------- the normal policy */

typedef struct {
    int rank;
    int value;
    double p;
} Chance;

/* best_sums: for each value, the most valuable set of table cards adding up to it (-1.0: none) */
static void best_sums(const int *table, int len, const double *worth, int points, double *best) {
    int top = points ? 13 : MAX_CLASSIC_PIP;
    for (int s = 0; s <= 13; s++) best[s] = -1.0;
    best[0] = 0.0;
    for (int k = 0; k < len; k++) {
        int v = VALUE[table[k]];
        if (v > top) continue;
        double w = worth[table[k]];
        double snapshot[14];
        memcpy(snapshot, best, sizeof snapshot);
        for (int s = 0; s + v <= top; s++) {
            if (snapshot[s] < 0.0) continue;
            double nw = snapshot[s] + w;
            if (nw > best[s + v]) best[s + v] = nw;
        }
    }
}

/* exposure: the expected value of the best capture the next player can make from ``table`` */
static double exposure(const int *table, int len, const Worth *worth, const Chance *chances, int nchances,
                       int points) {
    if (!len || !nchances) return 0.0;
    const double *cw = worth->card;
    double sums[14];
    best_sums(table, len, cw, points, sums);
    double gains[13], ps[13];
    int n = 0;
    for (int i = 0; i < nchances; i++) {
        int rank = chances[i].rank, value = chances[i].value;
        double gain;
        if (points || value <= MAX_CLASSIC_PIP) {
            if (sums[value] < 0.0) continue;
            gain = sums[value] + worth->capturer[rank];
        } else if (value == JACK_VALUE) {
            double total = 0.0;
            for (int k = 0; k < len; k++) total += cw[table[k]];
            gain = total + worth->capturer[rank];
        } else {
            int found = 0;
            double top = 0.0;
            for (int k = 0; k < len; k++) {
                if (CARD_RANK(table[k]) != rank) continue;
                if (!found || cw[table[k]] > top) top = cw[table[k]];
                found = 1;
            }
            if (!found) continue;
            gain = top + worth->capturer[rank];
        }
        /* options.sort(reverse=True): descending by (gain, p); equal pairs keep their order */
        int at = n;
        while (at > 0 && (gains[at - 1] < gain || (gains[at - 1] == gain && ps[at - 1] < chances[i].p))) {
            gains[at] = gains[at - 1];
            ps[at] = ps[at - 1];
            at--;
        }
        gains[at] = gain;
        ps[at] = chances[i].p;
        n++;
    }
    double expected = 0.0, miss = 1.0;
    for (int i = 0; i < n; i++) {
        expected += miss * ps[i] * gains[i];
        miss *= 1.0 - ps[i];
    }
    return expected;
}

/* position_from_state + rank_chances: the chance that the next hand holds each rank */
static int chances_of(const KonState *s, Chance *out) {
    int me = s->current;
    Mask unseen = 0;
    for (int p = 0; p < s->n; p++)
        if (p != me) unseen |= s->hand[p];
    for (int k = s->deck_pos; k < s->deck_len; k++) unseen |= BIT(s->deck[k]);
    int nxt = (me + 1) % s->n;
    int next_hand = POPCOUNT(s->hand[nxt]);
    if (next_hand == 0 || nxt == me) next_hand = s->deck_pos < s->deck_len ? 4 : 0;
    int total = POPCOUNT(unseen);
    if (!total || !next_hand) return 0;
    int counts[15] = {0};
    for (Mask m = unseen; m; m &= m - 1) counts[CARD_RANK(LOWEST(m))]++;
    int n = 0;
    for (int rank = 2; rank <= 14; rank++) {
        int k = counts[rank];
        if (!k) continue;
        out[n].rank = rank;
        out[n].value = rank == 14 ? 1 : rank;
        out[n].p = 1.0 - pow(1.0 - (double)k / (double)total, (double)next_hand);
        n++;
    }
    return n;
}

/* score_actions + the playout's choice (KonchinkaModel.playout_action): the first of the best scores; declined
 * (``choice`` -1) where there is no action to choose */
int kon_policy(const KonState *s, const KonAction *actions, int count, int *choice) {
    *choice = -1;
    if (count < 1) return KON_DECLINED; /* no action: not a position of the game */
    if (count == 1) {
        *choice = 0;
        return KON_OK;
    }
    const Worth *worth = worth_of(s);
    const double *cw = worth->card;
    Chance chances[13];
    int nchances = chances_of(s, chances);
    double scale = 1.0 + 0.25 * (s->n - 2);
    int hands_left = POPCOUNT(s->hand[s->current]);
    int last_round = s->deck_pos >= s->deck_len;
    int best = 0;
    double best_score = 0.0;
    int after[53];
    for (int i = 0; i < count; i++) {
        const KonAction *a = &actions[i];
        double score;
        if (a->kind == KON_FINISH || a->kind == KON_CAPTURE_FINISH) {
            score = 1000.0;
        } else {
            double gain;
            int len = 0;
            if (a->kind == KON_CAPTURE) {
                double taken = 0.0;
                for (Mask m = a->taken; m; m &= m - 1) taken += cw[LOWEST(m)];
                gain = taken + cw[a->card];
                for (int k = 0; k < s->table_len; k++)
                    if (!(BIT(s->table[k]) & a->taken)) after[len++] = s->table[k];
                if (!s->points_variant && CARD_RANK(a->card) == 11) gain -= JACK_KEEP;
                if (last_round) {
                    double left = 0.0;
                    for (int k = 0; k < len; k++) left += cw[after[k]];
                    gain += 0.25 * left * (hands_left == 1 ? 1.0 : 0.5);
                }
            } else {
                for (int k = 0; k < s->table_len; k++) after[len++] = s->table[k];
                after[len++] = a->card;
                gain = 0.0;
                if (!s->points_variant && CARD_RANK(a->card) == 11) gain -= JACK_KEEP + 0.1;
            }
            double risk = exposure(after, len, worth, chances, nchances, s->points_variant) * scale;
            score = gain - risk;
        }
        if (i == 0 || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    *choice = best;
    return KON_OK;
}

/* ------------------------------------------------------------------------------- the hard player */

static double phi(double x) { return 0.5 * (1.0 + erf(x / sqrt(2.0))); }

static double p_ahead(int lead, double spread) {
    if (spread <= 0.0) return lead > 0 ? 1.0 : 0.0;
    return phi((lead - 0.5) / spread);
}

/* expected_edge: my expected deal points minus the others' average, from the piles so far */
static double expected_edge(const KonState *s, int me) {
    int n = s->n;
    int sum_cards = 0, sum_clubs = 0;
    for (int p = 0; p < n; p++) {
        sum_cards += s->cards[p];
        sum_clubs += s->clubs[p];
    }
    double card_spread = sqrt(CARD_SPREAD * (TOTAL_CARDS - sum_cards));
    double club_spread = sqrt(CLUB_SPREAD * (TOTAL_CLUBS - sum_clubs));
    double expected[KON_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        double p_cards = 1.0, p_clubs = 1.0;
        for (int q = 0; q < n; q++) {
            if (q == p) continue;
            p_cards *= p_ahead(s->cards[p] - s->cards[q], card_spread);
            p_clubs *= p_ahead(s->clubs[p] - s->clubs[q], club_spread);
        }
        expected[p] = 2.0 * p_cards + p_clubs + s->konch[p];
    }
    double total = 0.0;
    for (int p = 0; p < n; p++) total += expected[p];
    double others = total - expected[me];
    return expected[me] - others / (n - 1) + 0.03 * (s->cards[me] - (double)(sum_cards - s->cards[me]) / (n - 1));
}

/* KonchinkaModel.value: the ended deal's points (or the expected edge while it runs), ±4 for the party */
double kon_value(const KonState *s, int me) {
    double value;
    int n = s->n;
    if (s->status != KON_RUNNING) {
        int pts = 0, cards = 0, clubs = 0;
        for (int p = 0; p < n; p++) {
            if (p == me) continue;
            pts += s->deal_points[p];
            cards += s->deal_cards[p];
            clubs += s->deal_clubs[p];
        }
        value = s->deal_points[me] - (double)pts / (n - 1);
        value += 0.03 * (s->deal_cards[me] - (double)cards / (n - 1));
        value += 0.05 * (s->deal_clubs[me] - (double)clubs / (n - 1));
    } else {
        value = expected_edge(s, me);
    }
    if (s->status == KON_PARTY_OVER) value += s->winner == me ? 4.0 : -4.0;
    return value;
}

/* rollouts.konchinka_rollout: at most ``plies`` actions (-1: no limit) while the deal runs; at ``me``'s turns
 * with a choice, ``depth`` > 0 tries every action (each followed by a rollout of ``depth - 1`` over the plies
 * left) and plays the best for ``me`` (the first of equals); otherwise the normal policy plays */
int kon_rollout(KonState *s, KonScratch *w, int me, int plies, int depth, double *value, long *steps) {
    KonAction *actions = malloc(sizeof(KonAction) * KON_MAX_ACTIONS);
    if (actions == NULL) return KON_DECLINED;
    int result = KON_OK;
    while (s->status == KON_RUNNING && plies != 0) {
        int count, choice;
        if (kon_legal(s, w, actions, &count) != KON_OK) {
            result = KON_DECLINED;
            break;
        }
        if (depth > 0 && s->current == me && count > 1) {
            double best_value = 0.0;
            choice = -1;
            for (int i = 0; i < count; i++) {
                KonState trial = *s;
                kon_apply(&trial, &actions[i]);
                *steps += 1;
                double v;
                if (kon_rollout(&trial, w, me, plies > 0 ? plies - 1 : -1, depth - 1, &v, steps) != KON_OK) {
                    result = KON_DECLINED;
                    break;
                }
                if (choice < 0 || v > best_value) {
                    choice = i;
                    best_value = v;
                }
            }
            if (result != KON_OK) break;
        } else if (kon_policy(s, actions, count, &choice) != KON_OK) {
            result = KON_DECLINED;
            break;
        }
        kon_apply(s, &actions[choice]);
        *steps += 1;
        if (plies > 0) plies--;
    }
    free(actions);
    if (result == KON_OK) *value = kon_value(s, me);
    return result;
}
