/* Кинг's playout kernel: one deal's rules, the normal player's card play and the hard player's rollouts
 * (king.c), and its Python face (module.c). */
#ifndef CARDBOT_KING_H
#define CARDBOT_KING_H

#include "kernel.h"

enum { KING_PLAYERS = 4, KING_TRICKS = 8 };

typedef struct {
    Mask hand[KING_PLAYERS];
    int trick[KING_PLAYERS]; /* the cards of the current trick, from its leader */
    int trick_len;
    int leader;
    int current;
    int trick_no;
    int points[KING_PLAYERS];
    int remaining;
    int contract; /* -1: a positive deal (trumps); else the index in list(Contract) */
    int trump;    /* -1: none */
    int forced_on_heart_lead;
    int stop_when_decided;
    int over; /* the deal has ended */
} KingState;

void king_init_tables(void);
Mask king_legal(const KingState *s);
void king_play(KingState *s, int card);
int king_policy(const KingState *s);
int king_rollout(KingState *s, int me, int depth, long *steps);
int king_surprises(KingState *s, int me, const int *plays, int count);
int king_play_rank(const KingState *s, Mask legal, int card);
double king_play_loglik(KingState *s, int me, const int *plays, int count, double beta, const double *lognorm);
const int *king_card_penalty(int contract);

#endif
