// Chapter 2's quiz cards: the EQ and AQ decks face down (counts), each card drawn face up with its
// question, its choices as answer buttons when an answer may be given now, and its reward; the
// cards already turned over. The answer key is never in the view.

import { h, plural } from "../../dom.js";

function deck(counted) {
  return h("div", { class: "deck-stack deck-quiz", dataset: { quizDeck: counted.name } },
    h("span", { class: "stack" }, String(counted.count)),
    h("span", { class: "deck-label" }, `${counted.name} deck`));
}

function quizCard(ctx, quiz) {
  const answers = ctx.sink.take((action) => action.id.startsWith(`answer:${quiz.id}:`));
  const byLetter = new Map(answers.map((action) => [action.id.split(":")[2], action]));
  return h("article", { class: "quiz-card", dataset: { quiz: quiz.id } },
    h("span", { class: "quiz-id" }, quiz.id),
    h("p", { class: "quiz-question" }, quiz.question),
    h("ol", { class: "quiz-choices" }, quiz.choices.map((choice) => {
      const action = byLetter.get(choice.letter);
      return h("li", { dataset: { letter: choice.letter } },
        action
          ? ctx.sink.button(action, h("span", { class: "quiz-answer" }, h("strong", {}, `${choice.letter})`), ` ${choice.text}`))
          : h("span", { class: "quiz-choice" }, `${choice.letter}) ${choice.text}`));
    })),
    // a player who may act, but not answer now, is told when answering opens again
    !answers.length && ctx.live && ctx.sink.context.act ? h("p", { class: "muted small quiz-wait" }, "Answer when no effect is being resolved.") : null,
    h("p", { class: "quiz-reward" }, h("strong", {}, "Reward: "), quiz.reward));
}

export function quizArea(ctx, area) {
  const decks = area.quiz_decks || [];
  const open = area.quizzes_open || [];
  const done = area.quizzes_turned_over || [];
  if (!decks.length && !open.length && !done.length) return null;
  return h("div", { class: "quiz-area" },
    h("h4", {}, "Quiz cards"),
    h("div", { class: "quiz-row" },
      h("div", { class: "deck-row" }, decks.map(deck)),
      open.length ? open.map((quiz) => quizCard(ctx, quiz)) : h("p", { class: "muted" }, "No quiz card drawn.")),
    done.length ? h("p", { class: "muted small quiz-done" }, `Turned over (${plural(done.length, "card")}): ${done.join(", ")}`) : null);
}
