// The studio page: asks the server for the deck's state, waiting for the next change, and redraws.
// Every text from the deck goes through textContent, never innerHTML: a deck cannot write markup here.
"use strict";

let version = -1;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function percent(x) { return (100 * x).toFixed(1) + "%"; }

function drawIssues(issues) {
  const list = document.getElementById("issues");
  list.replaceChildren();
  for (const issue of issues) {
    const item = el("li", { class: issue.severity, "data-code": issue.code });
    if (issue.where) {
      const link = el("a", { href: issue.href, class: "where" }, issue.where);
      item.append(link, " ");
    }
    item.append(el("span", { class: "severity" }, issue.severity + "[" + issue.code + "]"), " ");
    if (issue.card) item.append(el("b", {}, issue.card + ": "));
    item.append(el("span", { class: "text" }, issue.message));
    if (issue.hint) item.append(el("div", { class: "hint" }, "hint: " + issue.hint));
    list.append(item);
  }
  document.getElementById("no-issues").hidden = issues.length > 0;
}

function drawCards(cards) {
  const box = document.getElementById("cards");
  box.replaceChildren();
  for (const card of cards) {
    const figure = el("figure", { "data-card": card.card_id, "data-side": card.side });
    figure.append(el("img", { src: card.src, alt: card.name, loading: "lazy", "data-digest": card.digest }));
    const label = card.side === "front" ? card.name + (card.count > 1 ? " \u00d7" + card.count : "")
                                        : "Back (" + card.card_id + ")";
    figure.append(el("figcaption", {}, label));
    box.append(figure);
  }
  document.getElementById("card-count").textContent = cards.length ? "(" + cards.length + " faces)" : "";
}

function drawPictures(pictures) {
  const box = document.getElementById("pictures");
  box.replaceChildren();
  for (const picture of pictures) {
    const figure = el("figure");
    figure.append(el("img", { src: picture.src, alt: picture.title }), el("figcaption", {}, picture.title));
    box.append(figure);
  }
  document.getElementById("pictures-section").hidden = pictures.length === 0;
}

function drawSim(sim) {
  const box = document.getElementById("sim");
  box.replaceChildren();
  document.getElementById("no-sim").hidden = !!sim;
  if (!sim) return;
  box.append(el("p", {}, sim.games + " games, " + sim.players + " players (" + (sim.bots || []).join(", ") +
    "), seed " + sim.seed + ", deck version " + sim.deck_version + "; written " + sim.written + " to " + sim.file));
  const table = el("table");
  const head = el("tr");
  head.append(el("th", {}, "Seat"), el("th", {}, "Win rate"), el("th", {}, "95% interval"));
  table.append(head);
  for (const seat of sim.seats) {
    const row = el("tr");
    row.append(el("td", {}, String(seat.seat)), el("td", {}, percent(seat.rate)),
               el("td", {}, percent(seat.ci95[0]) + " to " + percent(seat.ci95[1])));
    table.append(row);
  }
  box.append(table);
  box.append(el("p", {}, "Median length " + sim.length + " turns; capped games " + percent(sim.capped || 0) + "."));
}

function draw(state) {
  document.getElementById("deck").textContent = state.deck;
  document.title = state.deck + " \u2013 cardtool studio";
  const badge = document.getElementById("state");
  badge.textContent = state.state;
  badge.className = "badge " + state.state;
  document.body.dataset.version = String(state.version);
  document.body.dataset.state = state.state;
  document.getElementById("message").textContent = state.message + (state.version > 0 ?
    " (" + state.seconds.toFixed(1) + " s)" : "");
  document.getElementById("stale").hidden = !state.stale;
  drawIssues(state.issues);
  drawCards(state.cards);
  drawPictures(state.pictures);
  drawSim(state.sim);
}

async function follow() {
  for (;;) {
    try {
      const answer = await fetch("/state.json?after=" + version, { cache: "no-store" });
      if (!answer.ok) throw new Error(answer.status);
      const state = await answer.json();
      if (state.version !== version) { version = state.version; draw(state); }
    } catch (error) {
      document.getElementById("message").textContent = "cardtool serve is not answering; retrying\u2026";
      await new Promise(done => setTimeout(done, 1000));
    }
  }
}

follow();
