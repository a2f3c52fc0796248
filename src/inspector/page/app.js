// The inspector's page: preact + htm, no build step. Every text it shows comes from the store and
// is untrusted: it is only ever rendered as text nodes (preact escapes them), never as HTML.
import { h, render } from "./preact.js";
import { useCallback, useEffect, useMemo, useRef, useState } from "./hooks.js";
import htm from "./htm.js";

const html = htm.bind(h);
const settings = document.body.dataset;
const PARTS = ["system", "facts", "summary", "recalled", "window"];
const PART_LABELS = {
  system: "System prompt",
  facts: "Facts",
  summary: "Summary",
  recalled: "Recalled",
  window: "Window",
};
const REASONS = {
  "window-size": "window size (message or turn limit)",
  "token-budget": "token budget",
  summary: "covered by the summary",
  "tool-result-cut": "tool result sent cut",
  "prepare-step": "left out by prepareStep",
};

// The token arrives in the URL's fragment (`#token=…`), which a browser never sends to a server;
// it is kept in this tab's sessionStorage (per origin, so per port: two inspectors side by side
// keep their own) and sent as a header, never as a cookie that every port of the host would get.
const TOKEN_KEY = `agentcore-inspector-token:${location.pathname}`;
function takeToken() {
  const match = /^#token=([^&]*)$/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    // Out of the address bar and the history.
    history.replaceState(null, "", `${location.pathname}${location.search}#/`);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}
const token = takeToken();

/** A request of the page's own, with the token. A 401 says how to get in. */
async function request(path, init = {}) {
  const headers = { ...(token ? { "x-inspector-token": token } : {}), ...init.headers };
  const response = await fetch(path, { ...init, credentials: "same-origin", headers });
  if (response.status === 401)
    throw new Error("Not allowed: open the inspector with the whole URL it printed (its token follows #token=).");
  return response;
}

async function api(path, init = {}) {
  const response = await request(path, { ...init, headers: { accept: "application/json", ...init.headers } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

/** A stored part's bytes as a blob: URL (an <img src> or a link cannot send the token header). */
async function partBlob(source) {
  const response = await request(source);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return URL.createObjectURL(await response.blob());
}

const formatTime = (ms) => (ms ? new Date(ms).toLocaleString() : "—");
const formatNumber = (value) => (typeof value === "number" ? value.toLocaleString("en-US") : "—");
const snippet = (message) => {
  if (!message) return "(not in the loaded history)";
  const text = message.parts.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join(" ");
  const calls = (message.toolCalls || []).map((call) => `${call.name}(…)`).join(", ");
  const shown = `${text}${calls ? ` ${calls}` : ""}`.trim() || "(empty)";
  return shown.length > 90 ? `${shown.slice(0, 89)}…` : shown;
};

function useRoute() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  const match = /^#\/session\/(.+)$/.exec(hash);
  return match ? { session: decodeURIComponent(match[1]) } : {};
}

function App() {
  const route = useRoute();
  return html`<header class="top"><a href="#/" class="brand">agentcore inspector</a></header>
    <main id="main">${route.session === undefined ? html`<${SessionList} />` : html`<${SessionView} id=${route.session} />`}</main>`;
}

function SessionList() {
  const [query, setQuery] = useState("");
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState(undefined);
  const [error, setError] = useState(undefined);
  const limit = 50;
  useEffect(() => {
    const timer = setTimeout(() => {
      api(`api/sessions?q=${encodeURIComponent(query)}&offset=${offset}&limit=${limit}`)
        .then((body) => {
          setPage(body);
          setError(undefined);
        })
        .catch((failure) => setError(failure.message));
    }, 150);
    return () => clearTimeout(timer);
  }, [query, offset]);
  const onSearch = (event) => {
    setQuery(event.currentTarget.value);
    setOffset(0);
  };
  return html`<h1>Sessions</h1>
    <div class="toolbar">
      <label for="search">Search sessions</label>
      <input id="search" type="search" value=${query} onInput=${onSearch} placeholder="id, agent or tag" autocomplete="off" />
    </div>
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${
      page &&
      html`<p class="count" aria-live="polite" data-total=${page.total}>
        ${page.total === 0 ? "No sessions" : `${formatNumber(page.offset + 1)}–${formatNumber(Math.min(page.offset + page.sessions.length, page.total))} of ${formatNumber(page.total)} sessions`}
      </p>
      <table class="sessions">
        <thead><tr><th scope="col">Session</th><th scope="col">Agent</th><th scope="col">Messages</th><th scope="col">Tokens</th><th scope="col">Last activity</th><th scope="col">Tags</th></tr></thead>
        <tbody>
          ${page.sessions.map(
            (entry) => html`<tr key=${entry.sessionId}>
              <td><a class="session-link" href=${`#/session/${encodeURIComponent(entry.sessionId)}`}>${entry.sessionId}</a></td>
              <td>${entry.agentName || "—"}</td>
              <td class="num">${formatNumber(entry.messageCount)}</td>
              <td class="num">${formatNumber(entry.tokenCount)}</td>
              <td>${formatTime(entry.accessedAt)}</td>
              <td>${(entry.tags || []).join(", ")}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - limit))}>Previous</button>
        <button type="button" disabled=${offset + limit >= page.total} onClick=${() => setOffset(offset + limit)}>Next</button>
      </nav>`
    }`;
}

function SessionView({ id }) {
  const [data, setData] = useState(undefined);
  const [error, setError] = useState(undefined);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  useEffect(() => {
    setData(undefined);
    api(`api/session?id=${encodeURIComponent(id)}`)
      .then(setData)
      .catch((failure) => setError(failure.message));
  }, [id]);
  if (error) return html`<p role="alert" class="error">${error}</p>`;
  if (!data) return html`<p aria-busy="true">Loading…</p>`;
  const byId = new Map(data.messages.filter((message) => message.id).map((message) => [message.id, message]));
  // The newest page comes first (a session is read as runs read it: a tail); older ones on demand.
  const earlier = async () => {
    setLoadingEarlier(true);
    try {
      const older = await api(`api/session?id=${encodeURIComponent(id)}&before=${data.start}`);
      setData((current) => ({
        ...current,
        start: Math.min(older.start, current.start),
        messages: [...older.messages.filter((message) => message.index < current.start), ...current.messages],
      }));
    } catch (failure) {
      setError(failure.message);
    } finally {
      setLoadingEarlier(false);
    }
  };
  const remove = async () => {
    if (!confirm(`Delete session "${id}" and all of its messages? This cannot be undone.`)) return;
    try {
      await api(`api/delete?id=${encodeURIComponent(id)}`, {
        method: "POST",
        headers: { "x-agentcore-inspector": "delete" },
      });
      location.hash = "#/";
    } catch (failure) {
      setError(failure.message);
    }
  };
  return html`<p><a href="#/">← All sessions</a></p>
    <h1 class="session-title">Session <code>${id}</code></h1>
    <p class="meta">${formatNumber(data.total)} messages · ${formatNumber(data.reports.length)} context reports · last activity ${formatTime(data.session.accessedAt)}</p>
    ${settings.allowDelete === "true" && html`<button type="button" class="danger" onClick=${remove}>Delete session…</button>`}
    <div class="columns">
      <section class="timeline" aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        ${data.start > 0 && html`<p class="note earlier">${formatNumber(data.start)} earlier messages not loaded. <button type="button" onClick=${earlier} disabled=${loadingEarlier}>Load earlier messages</button></p>`}
        <${Timeline} data=${data} byId=${byId} session=${id} />
      </section>
      <aside aria-label="Memory">
        <${Facts} scopes=${data.facts} />
        <${Summaries} summaries=${data.summaries} />
        ${settings.recall === "true" && html`<${RecallBox} session=${id} user=${data.reports.find((report) => report.userId)?.userId} />`}
      </aside>
    </div>`;
}

/** Turns: each user message starts one; a report belongs to the turn of the last user message in its window. */
function Timeline({ data, byId, session }) {
  const turns = useMemo(() => {
    const list = [];
    for (const message of data.messages) {
      if (message.role === "user" || list.length === 0) list.push({ messages: [], reports: [] });
      list[list.length - 1].messages.push(message);
    }
    const turnOf = new Map();
    list.forEach((turn, index) => turn.messages.forEach((message) => message.id && turnOf.set(message.id, index)));
    data.reports.forEach((report, index) => {
      const users = report.window.filter((messageId) => byId.get(messageId)?.role === "user");
      const turn = turnOf.get(users[users.length - 1]);
      if (turn !== undefined) list[turn].reports.push({ report, previous: data.reports[index - 1] });
    });
    return list;
  }, [data]);
  if (turns.length === 0) return html`<p>No messages.</p>`;
  return html`<ol class="turns">${turns.map((turn, index) => html`<li key=${index} class="turn"><${Turn} turn=${turn} number=${index + 1} byId=${byId} session=${session} data=${data} /></li>`)}</ol>`;
}

function Turn({ turn, number, byId, session, data }) {
  const results = new Map(
    turn.messages.filter((message) => message.role === "tool").map((message) => [message.toolCallId, message]),
  );
  return html`<h3 class="turn-title">Turn ${number}</h3>
    ${turn.messages.filter((message) => message.role !== "tool" || !message.toolCallId).map((message) => html`<${Message} key=${message.index} message=${message} results=${results} session=${session} />`)}
    ${turn.reports.map(
      ({ report, previous }) => html`<details class="report" key=${report.id}>
        <summary>Context of model call ${report.step} · ${formatNumber(report.tokens.total)} tokens · ${formatNumber(report.leftOutCount ?? report.leftOut.length)} left out</summary>
        <${Report} report=${report} previous=${previous} byId=${byId} data=${data} />
      </details>`,
    )}`;
}

function Message({ message, results, session }) {
  return html`<article class=${`message role-${message.role}`} id=${`message-${message.index}`} aria-label=${`${message.role} message ${message.index + 1}`}>
    <div class="role">${message.role}${message.timestamp ? html` <time>${formatTime(message.timestamp)}</time>` : ""}</div>
    ${message.parts.map((part, index) => html`<${Part} key=${index} part=${part} message=${message} session=${session} />`)}
    ${(message.toolCalls || []).map((call) => html`<${ToolCall} key=${call.id} call=${call} result=${results.get(call.id)} session=${session} />`)}
  </article>`;
}

/** Characters of a text shown before "Show more" (a browser lays out a huge unbroken text slowly). */
const SHOWN_TEXT = 5000;

function LongText({ text, truncated }) {
  const [all, setAll] = useState(false);
  const shown = all ? text : text.slice(0, SHOWN_TEXT);
  const hidden = text.length - shown.length;
  return html`<div class="text">${shown}</div>
    ${hidden > 0 && html`<button type="button" class="more" onClick=${() => setAll(true)}>Show ${formatNumber(hidden)} more characters</button>`}
    ${truncated ? html`<p class="note">… ${formatNumber(truncated)} more characters not shown (stored)</p>` : ""}`;
}

function Part({ part, message, session }) {
  if (part.type === "text") return part.text ? html`<${LongText} text=${part.text} truncated=${part.truncated} />` : "";
  if (part.type === "reasoning")
    return html`<details class="reasoning"><summary>Reasoning</summary><${LongText} text=${part.text} truncated=${part.truncated} /></details>`;
  if (part.url) return html`<p class="attachment">${part.type} (remote, not loaded): <code>${part.url}</code></p>`;
  const source = `api/part?session=${encodeURIComponent(session)}&message=${message.index}&part=${part.part}`;
  const label = `${part.filename || part.type} (${part.mediaType}, ${formatNumber(part.bytes)} bytes)`;
  if (part.type === "image" && /^image\/(png|jpeg|gif|webp)$/i.test(part.mediaType))
    return html`<${StoredImage} source=${source} label=${label} />`;
  return html`<${Attachment} source=${source} label=${label} filename=${part.filename || `part-${message.index}-${part.part}`} />`;
}

/** An image from its stored bytes, fetched once it comes near the screen, freed when it leaves the page. */
function StoredImage({ source, label }) {
  const figure = useRef(null);
  const [url, setUrl] = useState(undefined);
  const [failed, setFailed] = useState(undefined);
  useEffect(() => {
    let live = true;
    let created;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        partBlob(source)
          .then((blobUrl) => {
            created = blobUrl;
            if (live) setUrl(blobUrl);
            else URL.revokeObjectURL(blobUrl);
          })
          .catch((failure) => live && setFailed(failure.message));
      },
      { rootMargin: "400px" },
    );
    observer.observe(figure.current);
    return () => {
      live = false;
      observer.disconnect();
      if (created) URL.revokeObjectURL(created);
    };
  }, [source]);
  return html`<figure class="image" ref=${figure}>
    ${url ? html`<img src=${url} alt=${label} />` : html`<div class="image-placeholder">${failed ? `Not loaded: ${failed}` : "Loading…"}</div>`}
    <figcaption>${label}</figcaption>
  </figure>`;
}

/** A download of a stored part's bytes (served as opaque bytes: the browser saves them, never shows them). */
function Attachment({ source, label, filename }) {
  const [error, setError] = useState(undefined);
  const save = async () => {
    try {
      const url = await partBlob(source);
      const link = document.createElement("a");
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setError(undefined);
    } catch (failure) {
      setError(failure.message);
    }
  };
  return html`<p class="attachment"><button type="button" class="link download" onClick=${save}>${label}</button>
    ${error && html` <span role="alert" class="error">${error}</span>`}</p>`;
}

function ToolCall({ call, result, session }) {
  return html`<div class="tool-call">
    <div class="tool-side"><div class="tool-head">Call <code>${call.name}</code></div><pre>${call.arguments}</pre></div>
    <div class="tool-side"><div class="tool-head">Result</div>
      ${
        result
          ? result.parts.map(
              (part, index) => html`<${Part} key=${index} part=${part} message=${result} session=${session} />`,
            )
          : call.askedApproval
            ? html`<p class="note awaiting-approval">Awaiting the user's approval: no result until it is approved or denied.</p>`
            : html`<p class="note">No result stored.</p>`
      }
    </div>
  </div>`;
}

/**
 * A report references what the store holds (fact keys, the summary's id): their text is read from
 * the session's live facts and summaries, so a deleted fact or summary is not shown. Reports written
 * before that still carry `fact.value` and `summary`.
 */
function Report({ report, previous, byId, data }) {
  const liveFacts = new Map();
  for (const { facts } of [...data.facts].reverse()) for (const fact of facts) liveFacts.set(fact.key, fact.value);
  const summary = report.summaryId ? data.summaries.find((record) => record.id === report.summaryId) : undefined;
  const cut = report.truncated || previous?.truncated;
  const tokens = report.tokens;
  const sum = PARTS.reduce((total, part) => total + tokens[part], 0);
  const description = PARTS.map((part) => `${PART_LABELS[part]} ${tokens[part]}`).join(", ");
  const previousWindow = new Set(previous ? previous.window : []);
  const window = new Set(report.window);
  const entered = previous ? report.window.filter((messageId) => !previousWindow.has(messageId)) : [];
  const left = previous ? previous.window.filter((messageId) => !window.has(messageId)) : [];
  return html`<div class="report-body">
    <p class="meta">${report.model} · strategy ${report.strategy} · ${formatTime(report.createdAt)}${report.usage ? ` · provider counted ${formatNumber(report.usage.inputTokens)} in / ${formatNumber(report.usage.outputTokens)} out` : ""}${report.finishReason ? ` · finish ${report.finishReason}` : ""}</p>
    <div class="budget" role="img" aria-label=${`Tokens by part: ${description}; total ${tokens.total}`} data-total=${tokens.total}>
      ${PARTS.map((part) => (tokens[part] > 0 ? html`<span class=${`segment part-${part}`} data-part=${part} data-tokens=${tokens[part]} style=${{ width: `${(100 * tokens[part]) / Math.max(1, sum)}%` }} title=${`${PART_LABELS[part]}: ${tokens[part]}`}></span>` : ""))}
    </div>
    <table class="legend">
      <thead><tr><th scope="col">Part</th><th scope="col">Tokens</th><th scope="col">Share</th></tr></thead>
      <tbody>
        ${PARTS.map((part) => html`<tr><th scope="row"><span class=${`swatch part-${part}`} aria-hidden="true"></span>${PART_LABELS[part]}</th><td class="num">${formatNumber(tokens[part])}</td><td class="num">${Math.round((100 * tokens[part]) / Math.max(1, sum))}%</td></tr>`)}
        <tr class="total"><th scope="row">Total</th><td class="num report-total">${formatNumber(tokens.total)}</td><td class="num">${tokens.budget ? `window budget ${formatNumber(tokens.budget)}` : ""}</td></tr>
      </tbody>
    </table>
    ${report.truncated && html`<p class="note truncated">This report was cut to its size bound: ${formatNumber(report.window.length)} of ${formatNumber(report.windowCount)} window ids and ${formatNumber(report.leftOut.length)} of ${formatNumber(report.leftOutCount)} left-out entries kept (the newest).</p>`}
    <h4>Left out (${formatNumber(report.leftOutCount ?? report.leftOut.length)})</h4>
    ${report.unreadCount > 0 && html`<p class="note">${formatNumber(report.unreadCount)} older messages were not read (outside the strategy's tail).</p>`}
    ${
      report.leftOut.length === 0
        ? html`<p class="note">Nothing: every stored message read reached the model whole.</p>`
        : html`<ul class="left-out">
      ${report.leftOut.map((entry) => html`<li data-reason=${entry.reason}><span class="reason">${REASONS[entry.reason] || entry.reason}</span> <span class="role">${entry.role}</span> ${snippet(byId.get(entry.messageId))}${entry.reason === "tool-result-cut" ? ` (sent ${formatNumber(entry.sentChars)} of ${formatNumber(entry.storedChars)} characters)` : ""}</li>`)}
    </ul>`
    }
    ${
      previous &&
      cut &&
      html`<h4>Since the previous call</h4><p class="note">Not shown: a report was cut to its size bound.</p>`
    }
    ${
      previous &&
      !cut &&
      html`<h4>Since the previous call</h4>
      <div class="diff">
        <div><h5>Entered the window (${entered.length})</h5><ul class="entered">${entered.map((messageId) => html`<li>${snippet(byId.get(messageId))}</li>`)}</ul></div>
        <div><h5>Left the window (${left.length})</h5><ul class="left">${left.map((messageId) => html`<li>${snippet(byId.get(messageId))}</li>`)}</ul></div>
      </div>`
    }
    ${report.summaryId && html`<h4>Summary used</h4>${summary ? html`<div class="text">${summary.content}</div>` : html`<p class="note">No longer stored.</p>`}`}
    ${report.summary && html`<h4>Summary used</h4><div class="text">${report.summary}</div>`}
    ${report.providedContext && html`<h4>Memory provider's context</h4><div class="text">${report.providedContext}</div>`}
    ${report.facts.length > 0 && html`<h4>Facts in the prompt</h4><dl class="facts">${report.facts.map((fact) => html`<dt>${fact.key}</dt><dd>${"value" in fact ? fact.value : liveFacts.has(fact.key) ? liveFacts.get(fact.key) : html`<span class="note">no longer stored</span>`}</dd>`)}</dl>`}
    ${report.recalled.length > 0 && html`<h4>Recalled memories</h4><ol class="recalled">${report.recalled.map((record) => html`<li><span class="score">${typeof record.score === "number" ? record.score.toFixed(3) : "—"}</span> ${record.content}</li>`)}</ol>`}
  </div>`;
}

function Facts({ scopes }) {
  return html`<section aria-labelledby="facts-title"><h2 id="facts-title">Facts</h2>
    ${scopes.map(
      ({ scope, facts }) => html`<h3 class="scope">${scope}</h3>
        ${facts.length === 0 ? html`<p class="note">None.</p>` : html`<dl class="facts">${facts.map((fact) => html`<dt>${fact.key}</dt><dd>${fact.value}</dd>`)}</dl>`}`,
    )}
  </section>`;
}

function Summaries({ summaries }) {
  return html`<section aria-labelledby="summaries-title"><h2 id="summaries-title">Summaries</h2>
    ${summaries.length === 0 ? html`<p class="note">None.</p>` : summaries.map((summary) => html`<div class="summary"><p class="meta">covers ${formatNumber(summary.messageCount)} messages · ${summary.model} · ${formatTime(summary.createdAt)}</p><div class="text">${summary.content}</div></div>`)}
  </section>`;
}

function RecallBox({ session, user }) {
  const [query, setQuery] = useState("");
  const [result, setResult] = useState(undefined);
  const [error, setError] = useState(undefined);
  const submit = useCallback(
    (event) => {
      event.preventDefault();
      const userPart = user ? `&user=${encodeURIComponent(user)}` : "";
      api(`api/recall?session=${encodeURIComponent(session)}&q=${encodeURIComponent(query)}${userPart}`)
        .then((body) => {
          setResult(body);
          setError(undefined);
        })
        .catch((failure) => setError(failure.message));
    },
    [query, session, user],
  );
  return html`<section aria-labelledby="recall-title"><h2 id="recall-title">Recall</h2>
    <form class="recall" onSubmit=${submit}>
      <label for="recall-query">What would the provider recall for…</label>
      <input id="recall-query" type="text" value=${query} onInput=${(event) => setQuery(event.currentTarget.value)} />
      <button type="submit">Recall</button>
    </form>
    ${error && html`<p role="alert" class="error">${error}</p>`}
    ${result && html`<ol class="recall-results" aria-live="polite">${result.records.length === 0 ? html`<li>Nothing recalled.</li>` : result.records.map((record) => html`<li><span class="score">${typeof record.score === "number" ? record.score.toFixed(3) : "—"}</span> ${record.content}</li>`)}</ol>`}
  </section>`;
}

render(html`<${App} />`, document.getElementById("app"));
