"""One timeline line per event."""

from __future__ import annotations

from domain.eila.content import RESOURCE_LABELS, ContentPack
from domain.eila.events import (
    AbandonAsked,
    AbandonWithdrawn,
    AbilityUsed,
    BuyingEnded,
    CampaignAbandoned,
    CardBought,
    CardFetched,
    CardPlaced,
    CardRevealed,
    ChapterLost,
    ChapterOpened,
    ChapterSetUp,
    ChapterWon,
    ClauseChecked,
    CombatBegan,
    CombatResolved,
    CombatRolled,
    Converted,
    DawnChosen,
    DawnPeeked,
    DestinationSet,
    DieAcquired,
    Discarded,
    EffectSkipped,
    EilaEvent,
    EnergySpent,
    FearTaken,
    FrameDone,
    FutureShuffled,
    HabitArranged,
    HeartBroken,
    HeartGained,
    ItemAcquired,
    ItemsDiscarded,
    LocationActionChosen,
    LocationCovered,
    MarketDrawn,
    MineLaidOut,
    Moved,
    MoveEnded,
    NightBegan,
    OptionChosen,
    QuizAnswered,
    QuizDrawn,
    ResourcePaid,
    ResourceTaken,
    RoomMade,
    Submitted,
    SupportAcquired,
    TileFlipped,
    TimeMarked,
    TrailAdvanced,
)
from domain.eila.rules.labels import market_label
from domain.eila.state import EilaState

_PLACES = {"future": "the Future", "past": "the Past", "return": "its deck"}


def _line(pack: ContentPack, event: EilaEvent, state: EilaState) -> str | None:
    match event:
        case ChapterSetUp(chapter=chapter, attempt=attempt):
            title = pack.chapters[chapter].title
            again = "" if attempt == 1 else f" (attempt {attempt})"
            return f"Chapter {chapter}, {title}, begins{again}"
        case ChapterOpened(chapter=chapter):
            return f"Eila gets ready for chapter {chapter}"
        case HabitArranged(habit=habit):
            return f"Eila puts habit card {habit} under the green deck"
        case CardRevealed(card=card):
            return f"Eila reveals {card}, {pack.card(card, state.mode).name}"
        case OptionChosen(letter=letter):
            options = pack.card(state.present, state.mode).options
            option = next(o for o in options if o.letter == letter)
            return f"Eila chooses {letter}: {option.label}"
        case ResourceTaken(resource=resource, amount=amount):
            return f"Eila takes {amount or 'no'} {RESOURCE_LABELS[resource]}"
        case ResourcePaid(resource=resource, amount=amount):
            return f"Eila gives up {amount} {RESOURCE_LABELS[resource]}"
        case FearTaken(amount=amount, hearts=hearts, prevented=prevented):
            extra = f" and loses {hearts} HP to Fear past the limit" if hearts else ""
            shielded = f" ({prevented} HP loss prevented by shields)" if prevented else ""
            return f"Eila acquires {amount} Fear{extra}{shielded}"
        case RoomMade(resource=resource):
            return f"Eila discards 1 {RESOURCE_LABELS[resource]} to make room for Fear"
        case CardFetched(card=card):
            return f"Card {card} joins the story"
        case ItemAcquired(item=item):
            return f"Eila acquires {pack.items[item].name}"
        case ItemsDiscarded(items=items):
            return "Eila gives up " + " and ".join(pack.items[i].name for i in items)
        case HeartGained(amount=amount):
            return f"Eila regains {amount or 'no'} HP"
        case HeartBroken(amount=amount, prevented=prevented):
            shielded = f" ({prevented} prevented by shields)" if prevented else ""
            return f"Eila loses {amount} HP{shielded}"
        case EffectSkipped():
            return None
        case CardPlaced(card=card, destination=destination):
            return f"Card {card} goes to {_PLACES[destination]}"
        case NightBegan():
            return "Night falls"
        case Submitted(resource=resource):
            return f"Eila places 1 {RESOURCE_LABELS[resource]} on the goal card"
        case TimeMarked(token=token):
            if token == "energy":
                return "Eila spends 1 Energy on the time track"
            return "With no Energy left, Eila puts a heart on the time track"
        case FutureShuffled(count=count):
            return f"The Future's {count} cards are shuffled into the upcoming deck"
        case ChapterWon(chapter=chapter, ending=ending):
            return f"Eila wins chapter {chapter}, ending {ending}!"
        case ChapterLost(chapter=chapter, reason=reason):
            why = "out of HP" if reason == "hp" else "out of time"
            return f"Eila loses chapter {chapter}: {why}"
        case Converted(conversion=cid):
            conv = pack.conversions[cid]
            give, get = RESOURCE_LABELS[conv.give], RESOURCE_LABELS[conv.get]
            return f"Eila converts {conv.give_amount} {give} into {conv.get_amount} {get}"
        case Discarded(resource=resource):
            return f"Eila discards 1 {RESOURCE_LABELS[resource]}"
    return _more(pack, event, state)


def _more(pack: ContentPack, event: EilaEvent, state: EilaState) -> str | None:
    match event:
        case DestinationSet(destination=destination):
            return f"Card {state.present} will go to {_PLACES[destination]}"
        case SupportAcquired(support=support):
            return f"Eila acquires the support card {pack.supports[support].name}"
        case DieAcquired(die=die):
            return f"Eila acquires the {die} die"
        case ClauseChecked(holds=holds):
            return None if holds else "Eila does not have what the clause asks; it has no effect"
        case CombatBegan(enemy=enemy):
            found = pack.enemies[enemy]
            return f"Eila faces {found.name} (combat value {found.value})"
        case CombatRolled(red=red, green=green):
            faces = [_face(pack, "red", red)]
            if green is not None:
                faces.append(_face(pack, "green", green))
            return "Eila rolls " + " and ".join(faces)
        case EnergySpent():
            return f"Eila spends 1 Energy for +{pack.ruleset.energy_boost} combat value"
        case CombatResolved(won=won, value=value, enemy_value=enemy_value, shields=shields):
            result = "wins" if won else "loses"
            guard = f", with {shields} shield{'s' if shields > 1 else ''}" if shields else ""
            return f"Eila {result} the fight, {value} against {enemy_value}{guard}"
        case AbilityUsed(card=card):
            if card in pack.items:
                return f"Eila uses {pack.items[card].name}"
            return f"Eila casts {pack.supports[card].name}"
        case QuizDrawn(quiz=quiz):
            return f"Eila draws quiz card {quiz}: {pack.quizzes[quiz].question}"
        case QuizAnswered(quiz=quiz, choice=choice, correct=correct):
            verdict = "right" if correct else "wrong; the reward is gone"
            return f"Eila answers {quiz} with {choice}: {verdict}"
        case MineLaidOut():
            return "The mine is laid out"
        case TileFlipped(tile=tile):
            mine = pack.chapters[state.chapter].mine
            assert mine is not None
            return f"Eila flips a tile of the mine: {mine.tiles[tile].name}"
        case Moved(direction=direction, paid=paid):
            cost = {"energy": ", paying 1 Energy at a cliff", "hp": ", paying 1 HP at a cliff"}
            return f"Eila and Leo move {direction}{cost.get(paid, '')}"
        case LocationCovered(location=location):
            return f"Eila covers location {location}"
        case MarketDrawn(market=market, cards=cards):
            return f"{market_label(pack, market)} on offer: {', '.join(cards)}"
        case CardBought(card=card):
            return f"Eila buys {card}, {pack.cards[card].name}, into the Future"
        case LocationActionChosen(letter=letter) if letter:
            return f"Eila takes location action {letter}"
        case TrailAdvanced(card=card):
            return f"Eila goes on to {card}, {pack.card(card, state.mode).name}"
        case DawnPeeked():
            return "The pocket watch shows the first card of the day"
        case DawnChosen(last=last):
            return "Eila puts that card last" if last else "Eila keeps that card first"
        case AbandonAsked():
            return "Eila thinks of giving up the journey"
        case AbandonWithdrawn():
            return "Eila carries on"
        case CampaignAbandoned():
            return "The campaign is abandoned"
        case FrameDone() | MoveEnded() | BuyingEnded() | LocationActionChosen():
            return None
    return None


def _face(pack: ContentPack, die: str, index: int) -> str:
    face = pack.ruleset.dice[die].faces[index]
    symbol = f" ({face.symbol})" if face.symbol else ""
    shield = " with a shield" if face.shield and face.symbol != "shield" else ""
    return f"{face.value} on the {die} die{symbol}{shield}"


def describe(pack: ContentPack, event: EilaEvent, state: EilaState) -> str | None:
    """``state`` is the state right after ``event``."""
    line = _line(pack, event, state)
    if line is None or isinstance(event, ChapterSetUp | ChapterOpened):
        return line
    return f"Chapter {state.chapter}, day {state.day}: {line}"
