/* What every game's playout kernel shares (engine/<game>/ai/csrc: the rules of one deal, the normal players'
 * policies and the hard players' rollouts, compiled). Every function of a kernel mirrors a Python one in
 * engine/ (named in its comment) operation for operation, floating point included, so that both paths give
 * bit-identical results; tests/engine/test_kernel.py holds them to it.
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

#endif
