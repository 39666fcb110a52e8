## Кинг: стол, рука, козырь, итоги раздач и партии

king-deal = раздача { $deal }/{ $total } · сдаёт { $dealer }
king-over = партия окончена
king-contract-name = { $contract ->
    [tricks] «не брать взяток»
    [jacks] «не брать мальчиков»
    [queens] «не брать девочек»
    [hearts] «не брать червей»
    [last2] «не брать двух последних»
    [king] «не брать кинга»
   *[eralash] «ералаш»
}
king-contract-short = { $contract ->
    [tricks] взятки
    [jacks] мальчики
    [queens] девочки
    [hearts] черви
    [last2] две последние
    [king] кинг
   *[eralash] ералаш
}
king-positive = отыгрыш { $n }/{ $total }
king-wait-trump = ⏳ Ждём козыря — назначает { $name }
king-waiting-lead = ⏳ Взятку начинает { $leader }, затем вы. Стол и ходы — в группе.
king-waiting-lead-then = ⏳ Взятку начинает { $leader }, затем { $order } → вы. Стол и ходы — в группе.
king-waiting-after = ⏳ После вас во взятке: { $order }; следующую начнёт взявший. Стол и ходы — в группе.
king-trump = козырь <b>{ $suit }</b> (назначил { $name })
king-trump-last = козырь <b>{ $suit }</b> — по последней: { $card } (назначил { $name })
king-player = { $name } — взяток: { $tricks }
king-last-trick = Прошлая взятка: { $plays } → берёт { $name }
king-totals = Итого: { $scores }
king-your-cards = Ваши карты:
king-pick-card = Ваши карты — чем ходите?
king-first-three = Ваши первые три карты: { $cards }
king-choose-trump = Назовите козыря — или «по последней»: тогда козырем станет масть вашей восьмой карты, её увидят все.
btn-trump-last = 🂠 По последней
king-deal-over = <b>Раздача { $deal }/{ $total } окончена</b> · { $contract }
king-results-title = Итоги (отыгрыш − штрафы):
king-result = { $name }: { $plus } − { $minus } = <b>{ $total }</b>

settings-king-order = Порядок раздач «не брать»: { $order }
king-order-preset = { $preset ->
    [jacks] Сначала мальчики
    [cards] Сначала штрафы за карты
   *[std] Обычный
}
btn-solo-king = 👑 Кинг — с тремя ботами
king-you-choose-trump = козыря назначаете вы
king-deal-short = { $deal }/{ $total }
king-final-trick = Последняя взятка: { $plays } → берёт { $name }
king-stopped-early = ⏭ { $played ->
    [one] Сыграна { $played } взятка
    [few] Сыграно { $played } взятки
   *[many] Сыграно { $played } взяток
} из { $total }: все штрафные карты уже взяты, остальные взятки не разыгрываются.

## Запись партии картинкой
sheet-king-title = Кинг · запись
sheet-king-positive = отыгрыш { $n }
sheet-king-total = Итого
sheet-king-check = сумма всех столбцов:

## Кинг: название, команда, лобби, настройки, статистика

game-king = Кинг
game-king-button = 👑 Кинг
cmd-king = Новый Кинг
lobby-king-summary = 15 раздач, четверо

settings-king-forced = Кинга отдают и тогда, когда зашли с червей, а туз червей уже во взятке: { $value }
settings-king-stop = Заканчивать раздачу, когда штрафов не осталось: { $value }
settings-king-forced-short = Кинг под туза червей
settings-king-stop-short = Досрочный конец раздачи

stats-points-king = итог по очкам: { $points }

## Кинг: почему так ходить нельзя, подсказка, «🔍 Разбор партии», история партии

answer-must-follow-suit = Нужно класть карту в масть: у вас есть { $suit }.
answer-no-heart-lead = Заходить с червей нельзя, пока есть другие масти.
answer-must-play-king-of-hearts = Сейчас нужно отдать кинга (К♥).
answer-must-trump = Масти нет — нужно бить козырем { $suit }.

hint-move-play = { $card }
hint-move-trump = козырь { $suit }
hint-move-trump-last = козырь по последней карте
king-why-only = других ходов нет
king-why-trump-suit = в этой масти у вас сила
king-why-trump-last = ни одна масть не сильна, пусть решит последняя карта
king-why-dump-penalty = в масть нечем, можно сбросить { $what }
king-why-dump-high = в масть нечем, сбрасывает свою старшую карту этой масти
king-why-duck = младше { $best }, взятку не берёт
king-why-take-empty = во взятке нет штрафа, её можно взять
king-why-take-forced = любая ваша карта забирает эту взятку
king-why-take-least = взять сейчас выйдет дешевле, чем потом
king-why-lead-low = у соперников есть карты этой масти старше
king-why-lead-safe = старше этой карты в масти не осталось
king-why-ruff = в масть нечем, бьёт козырем
king-why-win = старше всех карт во взятке
king-why-cash = старше этой карты в масти не осталось
king-why-draw-trumps = выбивает козыри у соперников
king-why-discard = эта карта взятку не возьмёт
king-why-lead-keep-trumps = заходит не с козыря, козыри бережёт
king-why-lead = у соперников есть карты этой масти старше
hint-dump-what = { $what ->
    [king] кинга
    [queen] даму
    [jack] валета
   *[heart] черву
}

review-king-position = <b>{ $n }.</b> Раздача { $deal }/{ $total }, { $contract }, взятка { $trick }
review-king-trump-suit = козырь { $suit }
review-king-trick = На столе: { $plays }
review-king-lead = Вы заходите первым.
review-king-choose = Вы назначаете козыря, первые три карты: { $hand }

history-trump = козырь { $suit }

## Кинг: достижения

feat-king-clean-eralash = 🧹 Чистый ералаш
feat-king-clean-eralash-about = в ералаше — ни одной взятки, ни одного штрафного очка.
feat-king-clean-negatives = 🛡 Без единого штрафа
feat-king-clean-negatives-about = все семь отрицательных раздач партии — без штрафной взятки и карты.
