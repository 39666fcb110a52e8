## «🔍 Game review»: the moves where the master would have done better

btn-review = 🔍 Game review
answer-review-shown = 🔍 The review is above in this chat.
review-title = 🔍 <b>Game review</b>
review-weighed = The master went through every move where you had a choice ({ $count }). Here are the moves where it would have done better:
review-none = The master went through every move where you had a choice ({ $count }) and would have played them the same: none cost you points.
review-hand = Your cards: { $hand }
review-played = You: { $move }
review-played-note = You: { $move } — { $note }
review-better = Master: { $move } — { $why }; worth { $gain } points more on average over the rest of the deal.
review-better-bare = Master: { $move } — worth { $gain } points more on average over the rest of the deal.
review-better-why = Master: { $move } — { $why }.
review-better-move = Master: { $move }.
