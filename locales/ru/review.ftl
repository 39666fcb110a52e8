## «🔍 Разбор партии»: ходы, где мастер сыграл бы лучше

btn-review = 🔍 Разбор партии
answer-review-shown = 🔍 Разбор уже выше в этом чате.
review-title = 🔍 <b>Разбор партии</b>
review-weighed = Мастер пересчитал все ваши ходы, где был выбор ({ $count }). Вот ходы, где он сыграл бы лучше:
review-none = Мастер пересчитал все ваши ходы, где был выбор ({ $count }), и сыграл бы так же: ни один ход не стоил вам очков.
review-hand = У вас: { $hand }
review-played = Вы: { $move }
review-played-note = Вы: { $move } — { $note }
review-better = Мастер: { $move } — { $why }; в среднем на { $gain } очка больше за оставшуюся раздачу.
review-better-bare = Мастер: { $move } — в среднем на { $gain } очка больше за оставшуюся раздачу.
review-better-why = Мастер: { $move } — { $why }.
review-better-move = Мастер: { $move }.
