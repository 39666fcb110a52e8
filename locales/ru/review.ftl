## «🔍 Разбор партии»: ходы, где мастер сыграл бы лучше

btn-review = 🔍 Разбор партии
review-title = 🔍 <b>Разбор партии</b>
review-weighed = Мастер пересчитал все ваши ходы, где был выбор ({ $count }). Вот ходы, где он сыграл бы лучше:
review-none = Мастер пересчитал все ваши ходы, где был выбор ({ $count }), и сыграл бы так же: ни один ход не стоил вам очков.
review-hand = У вас: { $hand }
review-played = Вы: { $move }
review-better = Мастер: { $move } — в среднем на { $gain } очка больше.
review-king-position = <b>{ $n }.</b> Раздача { $deal }/{ $total }, { $contract }, взятка { $trick }
review-king-trump-suit = козырь { $suit }
review-king-trick = На столе: { $plays }
review-king-lead = Вы заходите первым.
review-king-choose = Вы назначаете козыря, первые три карты: { $hand }
