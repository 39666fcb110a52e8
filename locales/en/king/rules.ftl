## King: the rules (/rules and /help)

rules-title-king = King: dealing and tricks
rules-title-king-negative = King: the negative deals
rules-title-king-trump = King: trumps
rules-title-king-scoring = King: scoring

rules-nav-king = King
rules-nav-king-negative = Negative
rules-nav-king-trump = Trumps
rules-nav-king-scoring = Scoring

rules-game-options-king = ⚙️ <b>In this game of King:</b>

rules-king =
    Four players (bot players fill empty seats). A 32-card deck, seven to ace; in each suit A K Q J 10 9 8 7. A game is 15 deals: 7 negative deals, then 8 deals with trumps. Each deal gives everyone 8 cards, and 8 tricks are played.

    Play goes clockwise and you must follow suit. The highest card of the led suit wins the trick, or the highest trump if a trump was played. The winner leads next.

    The first dealer is drawn by lot. In the negative deals the deal passes to the left and the dealer's left neighbour leads. In the trump deals the dealer's right neighbour names trump, leads first and deals the next deal, so there the deal passes to the right.

    <b>Time per move</b> is set in the settings. A reminder comes before it runs out, and when it does, a bot player moves for you; after two missed turns in a row a bot takes your seat for now; one tap brings you back.
rules-king-negative =
    <b>Part one — seven negative deals</b>, no trumps. Each penalises one thing: tricks, jacks, queens, hearts, the last two tricks, the king of hearts. In the seventh deal, the <b>eralash</b>, all of them are penalised at once.

    If you can't follow suit, play any card. In “hearts”, “king” and “eralash” you may not lead hearts while holding another suit. In “king” and “eralash” the king of hearts must go at the first chance: if you can't follow suit, you play it. In this bot it must also go when hearts are led and the ace of hearts is already in the trick: the king cannot win that trick anyway. This second case can be switched off in the settings.

    A deal stops early once no penalty is left in it, say all the jacks are taken (except “no tricks”, “last two” and “eralash”, where all eight tricks are played). This early stop can also be switched off in the settings.

    Words: the old Russian rules call the negative deals «круги», rounds: the first round is no tricks, the second no jacks, the third no queens, the fourth no hearts, the fifth the last two tricks, the sixth the king of hearts, the seventh the eralash. In the trump deals a «круг» is four deals in which everyone names trump once: two rounds in all. The old rules also call a single deal an «игра», a game; in this bot a <b>game</b> is all 15 deals.

    The order of the seven deals is agreed in advance. Usually it is as above; the host may pick another one in the settings: jacks first, or the deals that penalise cards before those that penalise tricks.
rules-king-trump =
    <b>Part two — eight deals with trumps</b>; every trick brings points. The first of them is dealt by whoever's turn it is in part one's rotation: the left neighbour of the player who dealt the seventh negative deal.

    The player to the dealer's right names trump after seeing their first three cards: a suit, or “the last card” — then trump is the suit of their eighth card, shown to all. The others see their cards once trump is named. The chooser leads first and deals the next deal; so the right to name trump moves one seat to the right each deal, and over eight deals everyone names trump twice.

    If you can't follow suit you must trump if you can; you need not over-trump.
rules-king-scoring =
    <b>Penalties</b> in part one:
    • a trick — 2, 16 in all;
    • a jack — 4, 16 in all;
    • a queen — 4, 16 in all;
    • a heart — 2, 16 in all;
    • each of the last two tricks — 8, 16 in all;
    • the king of hearts — 16;
    • eralash — all of these together, 96.
    192 penalty points in all.

    <b>Part two</b>: 3 points a trick, 24 a deal, 192 for all eight.

    A player's result is their part-two points minus penalties; the four results always add up to 0. At the end the bot shows the table of all 15 deals.

rules-short-king = Four players, a 32-card deck, 15 deals of 8 tricks: 7 negative deals, then 8 with trumps. You must follow suit; the highest card of the led suit wins, or the highest trump.
rules-short-king-negative = 7 deals without trumps: no tricks (2 a trick), no jacks (4 each), no queens (4 each), no hearts (2 each), not the last two tricks (8 each), not the king of hearts (16); in the 7th, the eralash, all of them are penalised at once. In “hearts”, “king” and “eralash” you may not lead hearts while holding another suit; in “king” and “eralash” the king of hearts goes at the first chance.
rules-short-king-trump = The player to the dealer's right names trump after seeing their first three cards, or says “the last card” — then trump is the suit of their eighth card. If you can't follow suit you must trump if you can; each trick is worth 3 points.
rules-short-king-scoring = Penalties: a trick 2, a jack 4, a queen 4, a heart 2, each of the last two tricks 8, the king of hearts 16; eralash — all together, 96. Part two: 3 points a trick. A result is part two minus penalties; the four add up to 0.

help-moves-king = In King a move is one tap on a card.

## King: the rules' worked examples

rules-example-trick = { $trump ->
    [none] {""}
   *[other] Trump is { $trump }.{" "}
}{ $late ->
    [yes] The second-to-last trick: the lead is
   *[no] The lead is
} { $lead }, then come { $rest }. { $winner } takes the trick{ $sign ->
    [minus] {""}; in { $contract } that is { $points ->
        [one] { $points } penalty point
       *[other] { $points } penalty points
    }
    [plus] {""}: that is +{ $points } { $points ->
        [one] point
       *[other] points
    }
   *[zero] {""}
}.
rules-example-forced = In { $contract } { $leads ->
    [yes] you lead, holding { $hand }: { $allowed ->
        [one] you may lead only { $cards }
       *[other] you may lead { $cards }
    }
   *[no] the lead is { $led } and you hold { $hand }: { $allowed ->
        [one] you may play only { $cards }
       *[other] you may play { $cards }
    }
}.

## King: direct answers — a line above the section when a question has a short answer

rules-answer-king-value = { $count ->
    [0] {""}
   *[other] { $positive ->
        [yes] { $count } { $count ->
            [one] trick
           *[other] tricks
        } of a trump deal: { $count } × { $each } = { $sum } { $sum ->
            [one] point
           *[other] points
        }.{" "}
       *[no] { $count } × { $each } = { $sum } { $sum ->
            [one] penalty point
           *[other] penalty points
        }.{" "}
    }
}{ $item ->
    [king] The king of hearts costs
    [jack] Each jack costs
    [queen] Each queen costs
    [heart] Each heart costs
    [last2] Each of the last two tricks costs
   *[trick] Each trick costs
} { $points } { $points ->
    [one] penalty point
   *[other] penalty points
}{ $item ->
    [king] {""} in “no king of hearts”, and { $eralash } in the eralash, where it is a heart too.
    [jack] : in “no jacks” and in the eralash.
    [queen] : in “no queens” and in the eralash.
    [heart] : in “no hearts” and in the eralash.
    [last2] : in “no last two tricks” and in the eralash.
   *[trick] {""} in “no tricks” and in the eralash, and in the trump deals it brings { $plus } { $plus ->
        [one] point
       *[other] points
    }.
}{ $positive ->
    [yes] {""}
   *[no] { $item ->
        [king] {""}
       *[other] {" "}The whole deal: { $total }.
    }
}
rules-answer-king-dealt = Everyone gets { $hand } { $hand ->
    [one] card
   *[other] cards
}: the whole { $deck }-card deck is dealt at once.
rules-answer-king-deals = A game has { $deals } { $deals ->
    [one] deal
   *[other] deals
}: { $negative } negative (the old rules' rounds), then { $positive } with trumps, { $rounds } { $rounds ->
    [one] round
   *[other] rounds
} in which everyone names trump once a round.
rules-answer-king-tricks = Every deal has { $tricks } { $tricks ->
    [one] trick
   *[other] tricks
}: everyone gets { $tricks } { $tricks ->
    [one] card
   *[other] cards
}, and each trick takes one card from each player.
rules-answer-king-deal-most = The most one deal gives is { $most } { $most ->
    [one] point
   *[other] points
}, in a trump deal: all { $tricks } { $tricks ->
    [one] trick
   *[other] tricks
} at { $trick } each; a whole game's trump deals give at most { $whole }.
rules-answer-king-final-score = The result is the trump-deal points minus the penalties: { $positives } − { $penalties } = { $result }.
rules-answer-king-deal-forbids = { $item ->
    [king] In “no king of hearts” you must not take the king of hearts (K♥)
    [jack] In “no jacks” you must not take jacks
    [queen] In “no queens” you must not take queens
    [heart] In “no hearts” you must not take hearts
    [last2] In “last two” you must not take the seventh and eighth tricks
   *[trick] In “no tricks” you must not take tricks
}: each costs { $points } penalty { $points ->
    [one] point
   *[other] points
}{ $item ->
    [king] {""}
   *[other] , { $total } in the whole deal
}.
rules-answer-king-positive-trick = In the trump deals each trick brings { $trick } { $trick ->
    [one] point
   *[other] points
}: { $most } { $most ->
    [one] point
   *[other] points
} a deal in all.
rules-answer-king-zero-sum = The four results always add up to 0: a game hands out { $penalties } penalty { $penalties ->
    [one] point
   *[other] points
} and as many — { $positives } — trump-deal points.
rules-answer-king-overtrump = If you cannot follow suit you must play a trump when you have one; you need not beat a trump already played (the old rules do not say — this is the bot's reading).
rules-answer-king-king-discard = In “no king of hearts” and in the eralash the king of hearts goes at the first chance: when you cannot follow suit, you play it.
rules-answer-king-deck = The deck has { $cards } { $cards ->
    [one] card
   *[other] cards
}: seven to ace in each suit.
rules-answer-king-players = Exactly { $players } { $players ->
    [one] player
   *[other] players
}; bot players fill the empty seats.
rules-answer-king-hearts-lead = In “no hearts”, “no king of hearts” and the eralash you may lead hearts only when you hold no other suit; in the other deals you may.
rules-answer-king-first = In the negative deals the dealer's left neighbour leads first, in the trump deals the player who named trump; after that, whoever took the trick leads.
rules-answer-king-rounds = The “no” deals usually go: 1st no tricks, 2nd no jacks, 3rd no queens, 4th no hearts, 5th no last two tricks, 6th no king of hearts, 7th the eralash; then 8 trump deals. Another order is agreed before the game starts (in the settings).
rules-answer-king-first-dealer = The first dealer is drawn by lot; in the negative deals the deal passes to the left; the first trump deal is dealt by the left neighbour of whoever dealt the seventh, and after that the player who named trump deals the next one (the lot and the first trump deal are the bot's reading).
rules-answer-king-trick-winner = The highest card of the led suit takes the trick, or the highest trump if a trump was played; whoever took it leads next.
rules-answer-king-deal-points = { $deal ->
    [eralash] The eralash is worth { $eralash } penalty points in all
    [positive] A trump deal is worth { $positive } points in all, { $trick } a trick
   *[negative] Each of the six single negative deals is worth { $single } penalty points in all, the eralash { $eralash }
}; over the whole game, { $penalties } penalty { $penalties ->
    [one] point
   *[other] points
} and { $positives } trump-deal { $positives ->
    [one] point
   *[other] points
}.
rules-answer-king-trump-chooser = The player to the dealer's right names trump: after seeing their first { $cards } { $cards ->
    [one] card
   *[other] cards
} they name a suit or say “the last card”.
