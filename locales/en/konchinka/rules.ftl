## Konchinka: the rules (/rules and /help)

rules-title-konchinka = Konchinka: dealing and moves
rules-title-captures = Konchinka: capturing
rules-title-points = Points Konchinka
rules-title-scoring = Konchinka: scoring
rules-title-tally = Konchinka: the tally and settlement
rules-title-early-finish = Finishing early
rules-title-options = Konchinka: table settings

rules-nav-konchinka = Konchinka
rules-nav-captures = Captures
rules-nav-points = Points
rules-nav-scoring = Scoring
rules-nav-tally = Tally
rules-nav-early-finish = Finish
rules-nav-options = Settings

rules-game-options-konchinka = ⚙️ <b>In this game of Konchinka:</b>

rules-konchinka =
    <b>The goal</b> is to be the first to reach 15 points (the target can be changed in the settings) and win the game. Points are given after every deal: for the most cards, for the most clubs and for the konchinki. The <b>konchinki</b> are two precious cards, the two of clubs (2♣) and the ten of diamonds (10♦): each brings a point to whoever takes it.

    A 52-card deck, no trumps, 2–4 players, play goes clockwise.

    <b>A deal</b> lasts until the whole deck is played. The first dealer is drawn by lot; the next deal is dealt by their left neighbour, and so on round the table. The dealer gives everyone 4 cards and lays 4 cards face up on the table. The starting table never holds a jack or two cards of the same rank: the dealer puts such a card back into the middle of the deck and lays the next one in its place. Whenever all hands are empty, the same dealer gives everyone 4 more cards (none to the table), until the deck runs out. The dealer's left neighbour moves first.

    <b>A move</b> is exactly one card from your hand; you can't pass. The card either captures (see “Captures”) or is laid on the table.

    The old rules' advice: don't lead a konchinka (don't lay it on the table), wait until it can take a card of its own rank. It is advice, not a rule: the bot lets you lay konchinki.

    The captured cards, with the card that took them, go to your pile face down. Everyone can see how many cards and how many clubs each pile holds. When the deck and the hands are empty, whatever is left on the table goes to the last player who captured (to nobody if nobody captured).

    Words: in this bot a <b>deal</b> is the whole deck, from the first hand dealt to the last card (the old Russian rules call it an «игра», a game), and a <b>hand</b> is each round of 4 cards the dealer gives everyone (the old rules' «раздача»).
rules-captures =
    The card you play takes from the table either one card of the same rank or a set of cards whose points add up to its own. Ace is 1, two to ten are their face value: an eight takes ace + two + five, a seven takes three + four.

    In this bot a move takes only one capture — one card or one set: that is how the bot reads the old rules' “no more than one capture in a row”. Taking several sets with one card can be switched on in the settings. Queens and kings have no points and take only their own rank. A jack takes the whole table; on an empty table it is simply laid. (In points Konchinka the court cards have points and a jack does not sweep the table — see “Points”.)

    You may always lay a card instead, even when you could capture (unless “Must capture” is on in the settings).
rules-points =
    Just like Konchinka, but every card has points: ace 1, two to ten their face value, jack 11, queen 12, king 13.

    Every card takes either a card of its own rank or a set of cards with the same sum: a king takes, say, six + seven or queen + ace, a jack takes five + six.

    Here a jack does <b>not</b> sweep the table — it captures like any other card.

    In this bot a king takes sets worth 13 — its own value, like every card (the old rules say “14”, see “Settings”).
rules-scoring =
    When a deal is over:
    • most cards in the pile — <b>2 points</b>;
    • most clubs — <b>1 point</b>;
    • each <b>konchinka</b> — 2♣ and 10♦ — <b>1 point</b> to whoever holds it.

    “Most” means strictly more than every other player. On a tie nobody gets those points. A deal gives at most 5 points in all.

    When someone finishes the game early in the middle of a deal, only they score for that deal (see “Finish”).
rules-tally =
    Deals go on until somebody reaches the target (usually 15): if nobody has reached it after a deal, the next deal is played. If several reach it after the same deal, the highest total wins; if the leaders are tied, one more deal is played.

    The tally is kept the paper way: after each deal the new total is written next to the old one, which is crossed out. A player who scored 2, then 4, then 3 reads: <s>2</s> <s>6</s> 9.

    <b>Settlement</b> at the end of the game:
    • <b>on points</b> — each loser owes the winner the points they still lacked: with a target of 15, a player at 10 owes 5;
    • <b>fixed stake</b> — each loser owes the winner the agreed stake.
    The settlement is on paper: the bot only works out who owes what and keeps the result in the statistics.
rules-early-finish =
    A player who needs no more than two points to win may <b>finish</b> the game mid-deal, once what they have already captured this deal is sure to bring the missing points:
    • each captured konchinka — 1 point;
    • 7 or more clubs — the clubs point (there are 13 clubs, nobody can have more);
    • 27 or more cards — the 2 card points (there are 52 cards, nobody can have more).
    This is how this bot reads the rule. The old rules say only that you may finish “if you have taken 2 konchinki or seven clubs”. The bot asks that what you have taken covers the missing points (seven clubs are one point and do not cover two), and counts 27 cards as well.

    You finish on your turn. If the points are already secured, a “🏁 Finish it!” button appears under your cards at the start of your turn. If the capture you are making now secures them (say, you take the konchinka you needed), that card offers “🏁 Take … and finish”: the capture and the end of the game in one move — even with the deck's last card, before the deal is scored.

    The game ends at once and you win. Only your secured points go into the tally; the others get nothing for this deal — not even a player holding a konchinka.

    If the leaders are tied and one more deal is played (or when someone has already reached the target), you may finish only if your total becomes <b>strictly higher</b> than everyone else's: drawing level with the leader is not enough.

    Early finishing can be switched off in the settings.
rules-options =
    The host chooses the settings before the start; the table header shows them.
    • <b>Variant</b>: classic or points Konchinka.
    • <b>Target</b>: how many points to play to (usually 15).
    • <b>Several captures</b> (off by default): one card may take several sets at once if they don't overlap.
    • <b>Must capture</b> (off by default): if you can capture, you may not lay a card.
    • <b>Early finish</b> (on by default).
    • <b>Settlement</b>: on points or a fixed stake.
    • <b>Time per move</b>: a reminder comes shortly before the time runs out; when it does, a bot player moves for you, and after two missed turns in a row a bot takes your seat for now; one tap brings you back.

    <b>The old rules and this bot.</b> Where the old rule text can be read more than one way, the bot picked one reading: one capture a move (“no more than one capture in a row”; several at once is the setting above); in points Konchinka a king takes sets worth 13, its own value (the text says “14”); you may finish once what you have taken secures the missing points (the text says “2 konchinki or seven clubs”), and 27 cards count too.

rules-short-konchinka = The goal is to be the first to reach 15 points. 52 cards, 2–4 players. Everyone gets 4 cards and 4 go face up on the table; a move is one card, which either captures from the table or is laid on it. A deal lasts until the whole deck is played; what is left on the table goes to the last player who captured.
rules-short-captures = A card takes either one card of its own rank or a set of cards with the same sum of points (ace 1, two to ten their face value); in this bot one capture a move. Queens and kings have no points and take only their own rank; a jack takes the whole table. You may always lay a card instead, unless “Must capture” is on.
rules-short-points = Every card has points: jack 11, queen 12, king 13, and any card takes either a card of its own rank or a set worth its value; a jack does not sweep the table. In this bot a king takes sets worth 13, its own value (the old rules say “14”).
rules-short-scoring = After a deal: most cards — 2 points, most clubs — 1 point, each konchinka (2♣ and 10♦) — 1 point. On a tie nobody gets the points for cards or clubs.
rules-short-tally = Deals go on until somebody reaches the target (usually 15); if the leaders are tied, one more deal is played. Settlement is on points (a loser owes what they lacked) or a fixed stake.
rules-short-early-finish = A player who needs no more than two points may finish the game on their turn once this deal's captures secure them (this bot's reading of the old rule): a konchinka 1 point, 7 clubs 1, 27 cards 2 — also with the very capture that secures them, “🏁 Take … and finish”. The others get nothing for that deal. If the leaders are tied and one more deal is played, the total must end strictly higher than everyone else's.
rules-short-options = Before the start the host chooses the variant, the target, whether several captures a move are allowed, whether capturing is a must, whether early finishing is allowed, the settlement and the time per move.

help-moves-konchinka = In Konchinka a card that can do only one thing plays on one tap. When it has two or more moves (the card is marked «…»), the bot asks what it should do: which cards to capture, lay it on the table, or capture and finish. «🏁 Finish!» always asks first.

## Konchinka: the rules' worked examples

rules-example-or = {" "}or{" "}
rules-example-and = {" "}and{" "}
rules-example-capture = { $multi ->
    [yes] With several captures a move allowed: the table holds
   *[no] The table holds
} { $table }. The { $card } may take { $both ->
    [yes] { $captures } — or { $together } at once
   *[no] { $count ->
        [one] only { $captures }
       *[other] { $captures } — one of them
    }
}.
rules-example-pile = { $cards ->
    [one] { $cards } card
   *[other] { $cards } cards
}, { $clubs ->
    [one] { $clubs } club
   *[other] { $clubs } clubs
}{ $konchinki ->
    [0] {""}
    [1] {" "}and the konchinka { $konchinka }
   *[other] {" "}and both konchinki
}
rules-example-score = One player's pile holds { $first }; the other's, { $second }. The first scores { $a ->
    [one] { $a } point
   *[other] { $a } points
}, the second { $b ->
    [one] { $b } point
   *[other] { $b } points
}.
rules-example-finish = The game is to { $target }. You have { $mine ->
    [one] { $mine } point
   *[other] { $mine } points
}, { $others ->
    [one] your opponent { $other }
   *[other] your opponents { $other }
}; this deal you have taken { $pile }. That secures { $secured ->
    [one] { $secured } point
   *[other] { $secured } points
}, a total of { $total }: { $can ->
    [true] you may finish.
   *[false] you may not finish, { $reason ->
        [short] as that is short of the target.
       *[tie] since the total must be strictly higher than every opponent's.
    }
}
rules-example-finish-outcome = The game is to { $target }. You have { $mine ->
    [one] { $mine } point
   *[other] { $mine } points
}, { $others ->
    [one] your opponent
   *[other] your opponents
} { $other }. This deal you have taken { $pile }, { $others ->
    [one] your opponent
   *[other] your opponents
} { $their }. You finish the game: { $points ->
    [one] { $points } point goes
   *[other] { $points } points go
} into your tally (a total of { $total }), { $others ->
    [one] your opponent gets
   *[other] your opponents get
} { $theirs }: the others get nothing for this deal.

## Konchinka: direct answers — a line above the section when a question has a short answer

rules-answer-card-value = { $variant ->
    [points] { $rank ->
        [jack] In points Konchinka a jack is worth { rules-answer-value }: it takes a jack or a set worth { $value }, not the whole table.
        [queen] In points Konchinka a queen is worth { rules-answer-value }: it takes a queen or a set worth { $value }.
        [king] In points Konchinka a king is worth { rules-answer-value }: it takes a king or a set worth { $value }.
       *[other] In points Konchinka { rules-answer-rank } is worth { rules-answer-value }, as in the classic game.
    }
    [any] { $rank ->
        [jack] A jack: in classic Konchinka it has no points and sweeps the table; in points Konchinka it is worth { rules-answer-value }.
        [queen] A queen: in classic Konchinka it has no points and takes only a queen; in points Konchinka it is worth { rules-answer-value }.
       *[king] A king: in classic Konchinka it has no points and takes only a king; in points Konchinka it is worth { rules-answer-value }.
    }
   *[classic] { $rank ->
        [jack] In classic Konchinka a jack has no points: it sweeps the table.
        [queen] In classic Konchinka a queen has no points: it takes only a queen.
        [king] In classic Konchinka a king has no points: it takes only a king.
       *[other] In Konchinka { rules-answer-rank } is worth { rules-answer-value }.
    }
}
rules-answer-value = { $value } { $value ->
    [one] point
   *[other] points
}
rules-answer-rank = { $rank ->
    [ace] an ace
    [two] a two
    [three] a three
    [four] a four
    [five] a five
    [six] a six
    [seven] a seven
    [eight] an eight
    [nine] a nine
    [ten] a ten
    [jack] a jack
    [queen] a queen
   *[king] a king
}
rules-answer-card-values = { $variant ->
    [classic] In classic Konchinka { rules-answer-rank } is worth { $value ->
        [0] nothing
       *[other] { rules-answer-value }
    }, { rules-answer-rank2 } { $value2 ->
        [0] nothing
       *[other] { rules-answer-value2 }
    }.
    [points] In points Konchinka { rules-answer-rank } is worth { rules-answer-value }, { rules-answer-rank2 } { rules-answer-value2 }.
   *[any] In points Konchinka { rules-answer-rank } is worth { rules-answer-value }, { rules-answer-rank2 } { rules-answer-value2 }; in classic, jacks, queens and kings have no points.
}
rules-answer-value2 = { $value2 } { $value2 ->
    [one] point
   *[other] points
}
rules-answer-rank2 = { $rank2 ->
    [ace] an ace
    [two] a two
    [three] a three
    [four] a four
    [five] a five
    [six] a six
    [seven] a seven
    [eight] an eight
    [nine] a nine
    [ten] a ten
    [jack] a jack
    [queen] a queen
   *[king] a king
}
rules-answer-konchinka-value = The konchinki are the two of clubs (2♣) and the ten of diamonds (10♦): each brings { $points ->
    [one] { $points } point
   *[other] { $points } points
} to whoever holds it in their pile when the deal ends.
rules-answer-konchinka-dealt = Everyone gets { $hand } { $hand ->
    [one] card
   *[other] cards
}, and at the start of a deal { $table } { $table ->
    [one] card goes
   *[other] cards go
} face up on the table; when all hands are empty, the dealer deals again until the deck runs out.
rules-answer-konchinka-deck = The deck has { $cards } { $cards ->
    [one] card
   *[other] cards
}, no jokers.
rules-answer-konchinka-players = { $fewer } or { $max } { $max ->
    [one] player
   *[other] players
} sit at the table.
rules-answer-konchinka-target = { $known ->
    [yes] This game is played to { $target } { $target ->
        [one] point
       *[other] points
    }: whoever gets there first wins.
   *[no] Usually to { $target } { $target ->
        [one] point
       *[other] points
    }; the target is chosen in the settings before the game.
}
rules-answer-konchinka-settlement = { $settlement ->
    [stake] In this game each loser owes the winner the stake — { $stake }.
    [points] In this game each loser owes the winner the points they lacked to { $target }: a player at { $example } owes { $owes }{ $second ->
        [yes] , one at { $example2 } owes { $owes2 }
       *[no] {""}
    }.
   *[any] On points, each loser owes the winner what they lacked to { $target } (a player at { $example } owes { $owes }{ $second ->
        [yes] , one at { $example2 } owes { $owes2 }
       *[no] {""}
    }); with a fixed stake, the agreed stake.
}
rules-answer-konchinka-no-winner = Then the next deal is played: the game goes on until somebody reaches { $target } { $target ->
    [one] point
   *[other] points
}.
rules-answer-konchinka-deal-most = One deal gives at most { $most } { $most ->
    [one] point
   *[other] points
}: { $cards } for most cards, { $clubs } for most clubs and { $each } for each konchinka.
rules-answer-konchinka-terms = No: a game goes to { $target } { $target ->
    [one] point
   *[other] points
} over many deals; a deal (the old rules' «game») is the whole deck and gives at most { $most } { $most ->
    [one] point
   *[other] points
}; each hand dealt (the old rules' «deal») is { $hand } { $hand ->
    [one] card
   *[other] cards
} to everyone.
rules-answer-konchinka-running-total = Write the new total: { $before } + { $gained } = { $total }, and cross out the old one; whoever reaches { $target } first wins.
rules-answer-konchinka-deal-claims = That makes { $total } { $total ->
    [one] point
   *[other] points
} for the deal: most cards { $cards }, most clubs { $clubs }, konchinki { $konchinki }.
rules-answer-konchinka-most-prizes = Most cards bring { $cards } { $cards ->
    [one] point
   *[other] points
}, most clubs { $clubs } { $clubs ->
    [one] point
   *[other] points
}; if the leaders are tied, nobody gets them.
rules-answer-konchinka-lead-advice = You may: the bot does not forbid laying a konchinka. The old rules only advise keeping them until they can take a card of their own rank.
rules-answer-konchinka-hands = Within a deal everyone gets { $hand } { $hand ->
    [one] card
   *[other] cards
} at a time until the deck runs out: { $two } { $two ->
    [one] time
   *[other] times
} with two players, { $three } with three, { $four } with four.
rules-answer-konchinka-tie-at-target = If several players reach the target at once, the one with more wins; if the leaders are tied, one more deal is played (the old rules do not say — this is the bot's reading).
rules-answer-konchinka-opening-table = No jack and no second card of a rank goes on the table when dealing: the dealer puts such a card into the middle of the deck and turns up the next one, until the table holds 4 fitting cards.
rules-answer-konchinka-first = The dealer's left neighbour moves first, then play goes clockwise.
rules-answer-konchinka-finish-when = { $allowed ->
    [no] Early finishing is switched off in this game's settings.
   *[yes] When you need no more than { $within } { $within ->
        [one] point
       *[other] points
    } to win and this deal's captures already secure them (a konchinka 1 point, 7 clubs 1, 27 cards 2; this bot's reading of the rule): then a “🏁 Finish it!” button appears at the start of your turn, and if the capture you are making secures them, the move “🏁 Take … and finish”.
}
rules-answer-konchinka-finish-others = Nothing: only the player who finishes scores for that deal — the points already secured. Even a konchinka in another pile brings nothing.
rules-answer-konchinka-first-dealer = The first dealer is drawn by lot; the next deal is dealt by their left neighbour, and so on round the table.
