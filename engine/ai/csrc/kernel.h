/* The playout kernel: the rules of one Кинг deal and of a Кончинка deal, the normal players' policies and
 * the hard players' rollouts, compiled. Every function here mirrors a Python one in engine/ (named in its
 * comment) operation for operation, floating point included, so that both paths give bit-identical results;
 * tests/engine/test_kernel.py holds them to it.
 *
 * Cards are numbered as engine.cards.Card.index: suit * 13 + (rank - 2), suits ♣ ♦ ♥ ♠, ranks 2 .. ace (14).
 * A set of cards is a 64-bit mask with bit ``index``; walking a mask from its lowest bit visits the cards in
 * the engine's own order (hands are kept sorted by index there).
 */
#ifndef CARDBOT_KERNEL_H
#define CARDBOT_KERNEL_H

#include <stdint.h>

typedef uint64_t Mask;

#define CARD_SUIT(c) ((c) / 13)
#define CARD_RANK(c) ((c) % 13 + 2)
#define BIT(c) ((Mask)1 << (c))
#define SUIT_MASK(s) ((Mask)0x1FFF << (13 * (s)))
#define POPCOUNT(m) __builtin_popcountll(m)
#define LOWEST(m) __builtin_ctzll(m)

enum { CLUBS = 0, DIAMONDS = 1, HEARTS = 2, SPADES = 3 };

/* ------------------------------------------------------------------------------------------------ Кинг */

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
const int *king_card_penalty(int contract);

/* ------------------------------------------------------------------------------------------- Кончинка */

enum { KON_MAX_PLAYERS = 4, KON_TOTALS = 14, KON_MAX_ACTIONS = 4096, KON_INDEX_LIMIT = 16 };
enum { KON_LAY = 0, KON_CAPTURE = 1, KON_FINISH = 2 };
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

void kon_init_tables(void);
int kon_legal(const KonState *s, KonAction *out, int *count);
void kon_apply(KonState *s, const KonAction *a);
int kon_policy(const KonState *s, const KonAction *actions, int count, int *choice);
int kon_rollout(KonState *s, int me, int horizon, int depth, double *value, long *steps);
double kon_value(const KonState *s, int me);

#endif
