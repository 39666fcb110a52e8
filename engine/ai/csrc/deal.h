/* Exact draws of hidden hands: the compiled twin of engine/ai/deal.py (its DealTable), operation for operation,
 * floating point included, so that the same seed deals the same hands on either path.
 *
 * The cards to deal are taken in index order; counts[i][room] is the weight of the ways to deal cards i.. into
 * seats with `room` left (a product of each card's odds at its seat, summed). A state is indexed by the room of
 * every seat but the last, whose room follows from the cards left. A deal then takes each card to a seat with
 * odds proportional to the weight of the completions that choice leaves (SplitMix64 from the seed).
 */
#ifndef CARDBOT_DEAL_H
#define CARDBOT_DEAL_H

#include <stdlib.h>

#include "kernel.h"

enum { DEAL_MAX_SEATS = 4, DEAL_MAX_CARDS = 32, DEAL_MAX_SIZE = 8 };

typedef struct {
    int seats, n;
    int sizes[DEAL_MAX_SEATS];
    int cards[DEAL_MAX_CARDS];
    double weights[DEAL_MAX_CARDS][DEAL_MAX_SEATS];
    int stride[DEAL_MAX_SEATS]; /* of each seat but the last in a layer's index */
    int layer;                  /* states in a layer */
    double *counts;             /* (n + 1) layers */
} DealTable;

static inline uint64_t deal_splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The weight of dealing card i with `room` left, from the next layer (DealTable._sum). */
static inline double deal_sum(const DealTable *t, int i, const int *room) {
    const double *later = t->counts + (size_t)(i + 1) * t->layer;
    int index = 0;
    for (int p = 0; p < t->seats - 1; p++) index += room[p] * t->stride[p];
    double total = 0.0;
    for (int p = 0; p < t->seats; p++) {
        double w = t->weights[i][p];
        if (room[p] > 0 && w > 0.0) total += w * later[p < t->seats - 1 ? index - t->stride[p] : index];
    }
    return total;
}

/* Fills the table (DealTable.__init__); 0 when the problem is larger than the kernel takes or memory ran out. */
static inline int deal_build(DealTable *t, Mask cards, const int *sizes, int seats, const Mask *allowed,
                             const Mask *unlikely, double odds) {
    if (seats < 1 || seats > DEAL_MAX_SEATS || POPCOUNT(cards) > DEAL_MAX_CARDS) return 0;
    t->seats = seats;
    t->n = 0;
    for (Mask m = cards; m; m &= m - 1) t->cards[t->n++] = LOWEST(m);
    t->layer = 1;
    for (int p = 0; p < seats; p++) {
        if (sizes[p] < 0 || sizes[p] > DEAL_MAX_SIZE) return 0;
        t->sizes[p] = sizes[p];
        if (p < seats - 1) {
            t->stride[p] = t->layer;
            t->layer *= sizes[p] + 1;
        }
    }
    for (int i = 0; i < t->n; i++)
        for (int p = 0; p < seats; p++) {
            Mask bit = BIT(t->cards[i]);
            t->weights[i][p] = !(allowed[p] & bit) ? 0.0 : (unlikely[p] & bit) ? odds : 1.0;
        }
    t->counts = calloc((size_t)(t->n + 1) * t->layer, sizeof(double));
    if (t->counts == NULL) return 0;
    t->counts[(size_t)t->n * t->layer] = 1.0; /* nothing left to deal, no room left */
    for (int i = t->n - 1; i >= 0; i--) {
        double *here = t->counts + (size_t)i * t->layer;
        int room[DEAL_MAX_SEATS] = {0};
        for (int index = 0; index < t->layer; index++) {
            int rest = t->n - i, left = index;
            for (int p = 0; p < seats - 1; p++) {
                room[p] = left % (sizes[p] + 1);
                left /= sizes[p] + 1;
                rest -= room[p];
            }
            if (rest < 0 || rest > sizes[seats - 1]) continue;
            room[seats - 1] = rest;
            here[index] = deal_sum(t, i, room);
        }
    }
    return 1;
}

static inline void deal_free(DealTable *t) {
    free(t->counts);
    t->counts = NULL;
}

/* The weight of every deal (DealTable.total): 0 when none fits. */
static inline double deal_total(const DealTable *t) {
    int total = 0, index = 0;
    for (int p = 0; p < t->seats; p++) total += t->sizes[p];
    if (total != t->n) return 0.0;
    for (int p = 0; p < t->seats - 1; p++) index += t->sizes[p] * t->stride[p];
    return t->counts[index];
}

/* One deal from `seed` into `hands` (DealTable.deal); 0 when no deal fits. */
static inline int deal_draw(const DealTable *t, uint64_t seed, Mask *hands) {
    double total = deal_total(t);
    if (!(total > 0.0)) return 0;
    int room[DEAL_MAX_SEATS];
    for (int p = 0; p < t->seats; p++) {
        room[p] = t->sizes[p];
        hands[p] = 0;
    }
    uint64_t state = seed;
    for (int i = 0; i < t->n; i++) {
        const double *here = t->counts + (size_t)i * t->layer;
        const double *later = here + t->layer;
        int index = 0;
        for (int p = 0; p < t->seats - 1; p++) index += room[p] * t->stride[p];
        uint64_t bits = deal_splitmix64(&state);
        double pick = (double)(bits >> 11) * (1.0 / 9007199254740992.0) * here[index];
        int chosen = -1;
        for (int p = 0; p < t->seats; p++) {
            double w = t->weights[i][p];
            if (room[p] > 0 && w > 0.0) {
                double part = w * later[p < t->seats - 1 ? index - t->stride[p] : index];
                if (part > 0.0) {
                    chosen = p;
                    pick -= part;
                    if (pick < 0.0) break;
                }
            }
        }
        hands[chosen] |= BIT(t->cards[i]);
        room[chosen] -= 1;
    }
    return 1;
}

#endif
