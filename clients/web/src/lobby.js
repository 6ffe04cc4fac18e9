// The lobby: choose a name (or sign in), see the public rooms (live, from `watch_lobby`), create, join or watch.
// Owns: lobby markup and the create form. Must not: keep state beyond what the app holds.
import { forms, welcomeCard } from "./account.js";
import { chatPanel } from "./chat.js";
import { h } from "./dom.js";
import { turnBasedTag, turnsWaiting } from "./games.js";
import { t } from "./i18n.js";
import { passkeysAvailable } from "./passkey.js";
import { guestTag, provisionalTag } from "./people.js";
import { ownRating } from "./ratings.js";
import { creatableGames, gameTitle } from "./registry.js";
import { BANK_CHOICES, DAY, DEFAULT_TURN_DAYS, durationText, LIVE_BANK_CHOICES, ON_EXPIRY, TURN_DAYS } from "./turns.js";

// kept across renders
const form = {
  game: null,
  seats: null,
  bots: 0,
  options: {},
  isPublic: true,
  seed: "",
  turnSeconds: "",
  fillAfter: "",
  // (v1.2) "live" or "turn_based" (over days: `turnDays` a move, `onExpiry` when a seat's time runs out)
  pace: "live",
  turnDays: DEFAULT_TURN_DAYS,
  onExpiry: "wait",
  // (v1.2) each player's time bank in seconds (0: none): a turn-based room's, a live room's (with its clock)
  bank: 0,
  liveBank: 0,
};
/** Seats chosen per game for "Play now" (a quick match joins rooms with exactly that many seats). */
const quickSeats = {};

function nameForm(app) {
  const input = h("input", {
    id: "name",
    name: "name",
    required: true,
    maxlength: 32,
    autocomplete: "nickname",
    value: app.name || app.nameDraft,
    "data-key": "name",
    // kept across redraws (a connection's state changing redraws the page while the name is typed)
    onInput: (ev) => {
      app.nameDraft = ev.target.value;
    },
  });
  const submit = (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (name) app.setName(name);
  };
  if (app.nameError) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "name-error");
  }
  return h(
    "form",
    { class: "name-form", onSubmit: submit, "data-testid": "guest-form" },
    h("label", { for: "name" }, t("lobby.yourName")),
    h("div", { class: "row" }, input, h("button", { type: "submit", "data-key": "enter" }, t("lobby.enter"))),
    app.nameError ? h("p", { class: "form-error", id: "name-error", role: "alert", "data-testid": "name-error" }, app.nameError) : null,
    h("p", { class: "hint" }, t("lobby.kept")),
  );
}

/** The first screen: play as a guest (the name form), sign in or create an account. */
function welcome(app) {
  const invited = app.route ? h("p", { class: "hint invited", "data-testid": "invited" }, t("lobby.nameFirst", { room: app.route })) : null;
  return h("div", { class: "lobby" }, welcomeCard(app, nameForm(app), invited));
}

/** Right after a sign-up, where the browser has passkeys: "add a passkey" (or not now). */
function passkeyOffer(app) {
  if (!app.offerPasskey || !passkeysAvailable()) return null;
  return h(
    "div",
    { class: "passkey-offer", "data-testid": "passkey-offer" },
    h("p", { class: "hint" }, t("passkey.offer")),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        { type: "button", "data-key": "passkey-offer-add", "data-testid": "passkey-offer-add", "aria-busy": forms.pkAddBusy ? "true" : null, onClick: () => app.acceptPasskeyOffer() },
        forms.pkAddBusy ? t("passkey.waiting") : t("passkey.add"),
      ),
      h("button", { type: "button", class: "link", "data-key": "passkey-offer-no", "data-testid": "passkey-offer-no", onClick: () => app.declinePasskeyOffer() }, t("passkey.notNow")),
    ),
  );
}

/** "Hello, NAME": the seats this player holds; an account's page, or a guest's name and the way to an account. */
function mePanel(app, mine) {
  return h(
    "section",
    { class: "card-panel me", "aria-labelledby": "me-title" },
    h("h2", { id: "me-title" }, t("lobby.hello", { name: app.name })),
    app.account
      ? [
          h("p", { class: "hint", "data-testid": "me-account" }, t("lobby.asAccount"), " ", h("a", { href: "#/account", "data-key": "me-account" }, t("lobby.accountLink"))),
          passkeyOffer(app),
        ]
      : h(
          "p",
          { class: "hint", "data-testid": "me-guest" },
          t("lobby.asGuest"),
          " ",
          h(
            "a",
            {
              href: "#/account",
              "data-key": "me-sign-up",
              "data-testid": "me-sign-up",
              onClick: () => {
                forms.mode = "sign_up";
                if (!forms.name) forms.name = app.name || "";
              },
            },
            t("lobby.makeAccount"),
          ),
        ),
    turnsLink(app),
    mine.length
      ? h(
          "ul",
          { class: "mine" },
          mine.map(([room, r]) =>
            h(
              "li",
              null,
              h(
                "a",
                { href: `#/room/${encodeURIComponent(room)}`, "data-key": `mine-${room}` },
                `${gameTitle(r.game || app.store.get(room)?.view.game || "room")} `,
                h("code", null, room),
              ),
              r.seat !== null && r.seat !== undefined ? ` ${t("lobby.seatN", { n: r.seat + 1 })}` : "",
            ),
          ),
        )
      : h("p", { class: "hint" }, t("lobby.noSeat")),
    app.blocks?.length
      ? h(
          "p",
          { class: "hint" },
          h("a", { href: "#/account", "data-key": "me-blocks", "data-testid": "me-blocks" }, t("lobby.blocksLink", { n: app.blocks.length })),
        )
      : null,
    app.account
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "link",
            "data-key": "rename",
            onClick: () => {
              app.name = null;
              app.render();
            },
          },
          t("lobby.rename"),
        ),
  );
}

/** "It is your move in 2 games" (a link to My games), while a room waits for this player. */
function turnsLink(app) {
  const n = turnsWaiting(app);
  if (!n) return null;
  return h(
    "p",
    { class: "turns-waiting" },
    h("a", { href: "#/games", "data-key": "me-games", "data-testid": "me-games" }, h("strong", null, t("games.yourTurns", { n }))),
  );
}

/** "Play now": one button per game, a quick match into the fullest waiting public room or a new one. */
function quickPanel(app) {
  const games = creatableGames();
  if (!games.length) return null;
  return h(
    "section",
    { class: "card-panel quick", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, t("quick.title")),
    h("p", { class: "hint" }, t("quick.about")),
    h(
      "ul",
      { class: "quick-list" },
      games.map((g) => {
        const seats = quickSeats[g.id] >= g.minSeats && quickSeats[g.id] <= g.maxSeats ? quickSeats[g.id] : g.minSeats;
        const options = [];
        for (let n = g.minSeats; n <= g.maxSeats; n++) options.push(h("option", { value: n, selected: n === seats }, t("quick.players", { n })));
        const mine = ownRating(app, g.id);
        return h(
          "li",
          { class: "quick-row", "data-game": g.id },
          h("strong", null, g.title),
          mine ? [h("span", { class: "rating-badge", title: t("ratings.yours") }, t("ratings.badge", { rating: mine.rating })), provisionalTag(mine)] : null,
          h(
            "select",
            {
              "aria-label": t("quick.seatsOf", { game: g.title }),
              "data-key": `quick-seats-${g.id}`,
              onChange: (ev) => {
                quickSeats[g.id] = Number(ev.target.value);
              },
            },
            options,
          ),
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-key": `quick-${g.id}`,
              "data-testid": `quick-${g.id}`,
              disabled: app.matching.has(g.id),
              onClick: () => app.quickMatch(g.id, seats),
            },
            app.matching.has(g.id) ? t("quick.matching") : t("quick.play"),
          ),
        );
      }),
    ),
  );
}

function navPanel() {
  return h(
    "nav",
    { class: "card-panel lobby-nav", "aria-label": t("nav.label") },
    h("a", { href: "#/games", "data-key": "nav-games", "data-testid": "nav-games" }, t("games.title")),
    " · ",
    h("a", { href: "#/history", "data-key": "nav-history" }, t("history.title")),
    " · ",
    h("a", { href: "#/ratings", "data-key": "nav-ratings" }, t("nav.ratings")),
  );
}

/**
 * The seats of a listed room: each player's name with "guest" for a person without an account (v1.2 `guests`)
 * and its rating in the game (when rated), or "free".
 */
function seatsNodes(info) {
  const parts = [];
  info.players.forEach((p, i) => {
    if (i > 0) parts.push(", ");
    if (p === null) {
      parts.push(t("lobby.seatFree", { n: i + 1 }));
      return;
    }
    const rating = info.ratings?.[i];
    parts.push(
      h("span", { class: "seat-person", "data-seat": i }, p, guestTag(info.guests?.[i]), typeof rating === "number" ? ` (${t("ratings.badge", { rating })})` : null),
    );
  });
  return parts;
}

const LIST = "\u0000";

/** A sentence of the catalogue with `nodes` where its `{list}` placeholder was (given as LIST). */
function withList(text, nodes) {
  const at = text.indexOf(LIST);
  return at < 0 ? [text, " ", nodes] : [text.slice(0, at), nodes, text.slice(at + LIST.length)];
}

function roomRow(app, info) {
  const held = app.held.has(info.room);
  const free = info.players.some((p) => p === null);
  const actions = [];
  if (held) {
    actions.push(h("button", { type: "button", "data-key": `open-${info.room}`, onClick: () => app.go(info.room) }, t("lobby.open")));
  } else if (info.status === "waiting" && free) {
    const join = async () => {
      if (await app.join(info.room)) app.go(info.room);
    };
    actions.push(h("button", { type: "button", class: "primary", "data-key": `join-${info.room}`, onClick: join }, t("lobby.join")));
  }
  if (!held) {
    const watch = () => app.go(info.room); // the route joins as a spectator
    actions.push(h("button", { type: "button", "data-key": `watch-${info.room}`, onClick: watch }, t("lobby.watch")));
  }
  return h(
    "li",
    { class: "room-row", "data-room": info.room, "data-status": info.status },
    h(
      "div",
      { class: "room-info" },
      h("strong", null, gameTitle(info.game)),
      " ",
      h("span", { class: `badge ${info.status}` }, t(`status.${info.status}`)),
      info.mode === "turn_based" ? turnBasedTag() : null,
      " ",
      h("code", { class: "room-id" }, info.room),
      h("div", { class: "players" }, withList(t("lobby.seatsList", { n: info.seats, list: LIST }), seatsNodes(info))),
    ),
    h("div", { class: "actions" }, actions),
  );
}

/**
 * A checkbox per on/off option of a game (`renderer.options`: `{key, label}`), ticked from `values` and
 * writing into it; the create form and the host's options form of a waiting room share them.
 */
export function optionBoxes(game, values, prefix) {
  return (game.options || []).map((o) => {
    const id = `${prefix}-${o.key}`;
    return h(
      "label",
      { class: "check", for: id },
      h("input", {
        type: "checkbox",
        id,
        "data-key": id,
        checked: Boolean(values[o.key]),
        onChange: (ev) => {
          values[o.key] = ev.target.checked;
        },
      }),
      " ",
      o.label,
    );
  });
}

/** A choice between radio buttons, `value` kept in `form[key]` (the form is drawn again on a change). */
function paceRadio(app, value, label) {
  const id = `pace-${value === "turn_based" ? "turn" : "live"}`;
  return h(
    "label",
    { class: "radio", for: id },
    h("input", {
      type: "radio",
      id,
      name: "pace",
      value,
      "data-key": id,
      checked: form.pace === value,
      onChange: () => {
        form.pace = value;
        app.render();
      },
    }),
    " ",
    label,
  );
}

/**
 * The room's pace: live (the optional seconds per move) or turn-based over days (v1.2): the time a move may
 * take (1, 3, 7 or 14 days) and what happens when a player's time runs out.
 */
function paceFields(app) {
  const pace = h(
    "fieldset",
    { class: "pace" },
    h("legend", null, t("lobby.pace")),
    paceRadio(app, "live", t("lobby.paceLive")),
    paceRadio(app, "turn_based", t("lobby.paceTurnBased")),
  );
  if (form.pace !== "turn_based") {
    return [
      pace,
      h("label", { for: "turn-seconds" }, t("lobby.turnSeconds")),
      h("input", {
        id: "turn-seconds",
        type: "number",
        min: 10,
        max: 86400,
        placeholder: t("lobby.noClock"),
        "data-key": "turn-seconds",
        value: form.turnSeconds,
        onInput: (ev) => {
          form.turnSeconds = ev.target.value;
        },
      }),
      bankSelect("live-bank", LIVE_BANK_CHOICES, "liveBank", t("lobby.timeBankLive")),
    ];
  }
  return [
    pace,
    h("label", { for: "turn-days" }, t("lobby.turnDays")),
    h(
      "select",
      {
        id: "turn-days",
        "data-key": "turn-days",
        onChange: (ev) => {
          form.turnDays = Number(ev.target.value);
        },
      },
      TURN_DAYS.map((n) => h("option", { value: n, selected: n === form.turnDays }, t("time.days", { n }))),
    ),
    h("label", { for: "on-expiry" }, t("lobby.onExpiry")),
    h(
      "select",
      {
        id: "on-expiry",
        "data-key": "on-expiry",
        onChange: (ev) => {
          form.onExpiry = ev.target.value;
        },
      },
      ON_EXPIRY.map((rule) => h("option", { value: rule, selected: rule === form.onExpiry }, t(`lobby.expiry.${rule}`))),
    ),
    bankSelect("time-bank", BANK_CHOICES, "bank", t("lobby.timeBank")),
  ];
}

/** (v1.2) Each player's time bank: a choice of lengths, "none" first; `key` of `form` keeps it. */
function bankSelect(id, choices, key, label) {
  return [
    h("label", { for: id }, label),
    h(
      "select",
      {
        id,
        "data-key": id,
        "data-testid": id,
        onChange: (ev) => {
          form[key] = Number(ev.target.value);
        },
      },
      choices.map((n) => h("option", { value: n, selected: n === form[key] }, n ? durationText(n) : t("lobby.noBank"))),
    ),
  ];
}

function createForm(app) {
  const games = creatableGames();
  if (!games.length) return null;
  const game = games.find((g) => g.id === form.game) || games[0];
  form.game = game.id;
  if (!(form.seats >= game.minSeats && form.seats <= game.maxSeats)) form.seats = Math.min(3, game.maxSeats);
  const seatOptions = [];
  for (let n = game.minSeats; n <= game.maxSeats; n++) seatOptions.push(h("option", { value: n, selected: n === form.seats }, String(n)));
  const boxes = optionBoxes(game, form.options, "opt");
  const submit = (ev) => {
    ev.preventDefault();
    const options = {};
    for (const o of game.options || []) if (form.options[o.key]) options[o.key] = true;
    if (form.seed.trim() !== "") options.seed = Number.parseInt(form.seed, 10);
    const bots = Math.min(form.bots, form.seats - 1);
    const extra = {};
    if (form.pace === "turn_based") {
      extra.mode = "turn_based";
      extra.turn_seconds = form.turnDays * DAY;
      extra.on_expiry = form.onExpiry;
      if (form.bank > 0) extra.time_bank_seconds = form.bank;
    } else if (form.turnSeconds.trim() !== "") {
      extra.turn_seconds = Number.parseInt(form.turnSeconds, 10);
      if (form.liveBank > 0) extra.time_bank_seconds = form.liveBank; // a bank needs the clock
    }
    if (form.fillAfter.trim() !== "") extra.fill_bots_after = Number.parseInt(form.fillAfter, 10);
    app.create({ game: game.id, seats: form.seats, bots, options, isPublic: form.isPublic, extra });
  };
  return h(
    "form",
    { class: "card-panel create", onSubmit: submit, "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, t("lobby.newRoom")),
    h(
      "div",
      { class: "grid2" },
      h("label", { for: "game" }, t("lobby.game")),
      h(
        "select",
        {
          id: "game",
          "data-key": "game",
          onChange: (ev) => {
            form.game = ev.target.value;
            app.render();
          },
        },
        games.map((g) => h("option", { value: g.id, selected: g.id === game.id }, g.title)),
      ),
      h("label", { for: "seats" }, t("lobby.seats")),
      h(
        "select",
        {
          id: "seats",
          "data-key": "seats",
          onChange: (ev) => {
            form.seats = Number(ev.target.value);
            app.render();
          },
        },
        seatOptions,
      ),
      h("label", { for: "bots" }, t("lobby.bots")),
      h(
        "select",
        {
          id: "bots",
          "data-key": "bots",
          onChange: (ev) => {
            form.bots = Number(ev.target.value);
          },
        },
        Array.from({ length: form.seats }, (_, n) =>
          h("option", { value: n, selected: n === Math.min(form.bots, form.seats - 1) }, n === 0 ? t("lobby.none") : String(n)),
        ),
      ),
      paceFields(app),
      h("label", { for: "fill-after" }, t("lobby.fillAfter")),
      h("input", {
        id: "fill-after",
        type: "number",
        min: 1,
        max: 86400,
        placeholder: t("lobby.never"),
        "data-key": "fill-after",
        value: form.fillAfter,
        onInput: (ev) => {
          form.fillAfter = ev.target.value;
        },
      }),
    ),
    boxes,
    h(
      "label",
      { class: "check", for: "public" },
      h("input", {
        type: "checkbox",
        id: "public",
        "data-key": "public",
        checked: form.isPublic,
        onChange: (ev) => {
          form.isPublic = ev.target.checked;
        },
      }),
      ` ${t("lobby.public")}`,
    ),
    h(
      "details",
      { class: "advanced" },
      h("summary", { "data-key": "advanced" }, t("lobby.testServers")),
      h("label", { for: "seed" }, t("lobby.seed")),
      h("input", {
        id: "seed",
        inputmode: "numeric",
        pattern: "[0-9]*",
        "data-key": "seed",
        value: form.seed,
        onInput: (ev) => {
          form.seed = ev.target.value;
        },
      }),
    ),
    h("button", { type: "submit", class: "primary", "data-key": "create" }, t("lobby.create")),
  );
}

/** The whole lobby page. */
export function renderLobby(app) {
  if (!app.name) return welcome(app);
  if (!app.player) return h("div", { class: "lobby" }, h("p", { class: "hint" }, app.net === "open" ? t("lobby.signingIn") : t("lobby.connecting")));
  const mine = [...app.held.entries()];
  const rooms = app.lobby;
  return h(
    "div",
    { class: "lobby" },
    h("h1", { class: "sr" }, t("room.lobby")), // the page's title for a screen reader's list of headings
    quickPanel(app),
    navPanel(),
    mePanel(app, mine),
    h(
      "section",
      { class: "card-panel", "aria-labelledby": "rooms-title" },
      h("h2", { id: "rooms-title" }, t("lobby.openRooms"), " ", h("span", { class: "count" }, `(${rooms.length})`)),
      rooms.length
        ? h("ul", { class: "rooms" }, rooms.map((r) => roomRow(app, r)))
        : h("p", { class: "hint rooms-empty" }, t("lobby.noRooms")),
    ),
    createForm(app),
    chatPanel(app, ""),
  );
}
