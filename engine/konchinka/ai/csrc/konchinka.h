/* Кончинка's playout kernel: one deal's rules, the normal player's scoring of actions and the hard player's
 * value and rollouts (konchinka.c), and its Python face (module.c). */
#ifndef CARDBOT_KONCHINKA_H
#define CARDBOT_KONCHINKA_H

#include "kernel.h"

enum { KON_MAX_PLAYERS = 4, KON_TOTALS = 14, KON_MAX_ACTIONS = 4096, KON_INDEX_LIMIT = 16 };
enum { KON_LAY = 0, KON_CAPTURE = 1, KON_FINISH = 2, KON_CAPTURE_FINISH = 3 };
enum { KON_RUNNING = 0, KON_DEAL_OVER = 1, KON_PARTY_OVER = 2 };
enum { KON_OK = 0, KON_DECLINED = 1 };

typedef struct {
    int kind;
    int card;
    Mask taken;
} KonAction;

typedef struct {
    int n;
    int points_variant;
    int multi;
    int forced;
    int early_finish;
    int target;
    Mask hand[KON_MAX_PLAYERS];
    int table[52];
    int table_len;
    int deck[52];
    int deck_len; /* deck[deck_pos ..] is still to deal */
    int deck_pos;
    int cards[KON_MAX_PLAYERS];
    int clubs[KON_MAX_PLAYERS];
    int konch[KON_MAX_PLAYERS];
    int last_capturer;
    int totals[KON_MAX_PLAYERS];
    int current;
    int dealer;
    int status;
    int winner;
    /* the score of the deal that ended (status != KON_RUNNING) */
    int deal_points[KON_MAX_PLAYERS];
    int deal_cards[KON_MAX_PLAYERS];
    int deal_clubs[KON_MAX_PLAYERS];
} KonState;

/* The working memory of one call into the kernel (kon_scratch_new): nothing is shared between calls, so calls
 * in several threads at once (each without the GIL) never meet. */
typedef struct KonScratch KonScratch;

void kon_init_tables(void);
KonScratch *kon_scratch_new(void);
void kon_scratch_free(KonScratch *w);
int kon_legal(const KonState *s, KonScratch *w, KonAction *out, int *count);
void kon_apply(KonState *s, const KonAction *a);
int kon_policy(const KonState *s, const KonAction *actions, int count, int *choice);
int kon_rollout(KonState *s, KonScratch *w, int me, int horizon, int depth, double *value, long *steps);
double kon_value(const KonState *s, int me);

#endif
