## Достижения: объявляются один раз, с итогом партии

feat-yours = 🏅 Новое достижение — { $feat }: { $about }
feat-theirs = 🏅 { $name } — { $feat }
feat-master-first = 🎓 Первая победа над мастером
feat-master-first-about = выиграна партия против ботов уровня «мастер».
feat-master-ten = 🏆 Десять подряд
feat-master-ten-about = десять партий подряд выиграны у «мастера» (брошенная после хода партия прерывает серию).

## Страница игрока (/me)

page-caption = 📊 Страница игрока: { $name }
page-subtitle = Страница игрока · доиграно партий: { $games }
page-record = { $games ->
    [one] { $games } партия
    [few] { $games } партии
   *[many] { $games } партий
}, { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
   *[many] { $wins } побед
}
page-rating = Рейтинг { $rating }
page-rating-ranked = Рейтинг { $rating } · место { $place } из { $total }
page-wins-share = Побед: { $share }%
page-form = Форма:
page-best = Лучшее
page-best-score = Больше всего очков в партии: { $score }
page-best-margin = Самый большой отрыв в победе: { $margin }
page-best-run = Побед подряд: { $wins }
page-rivals = Чаще всего за столом с вами (выше : ниже)
page-feats = Достижения — { $earned }/{ $total }
page-feats-none = Пока ни одного: они объявляются с итогом партии.
page-nothing = Вы ещё не доиграли ни одной партии — страница появится после первой. Сыграть с ботами — /play.

btn-player-page = 📊 Моя страница
