// @ts-check
// The chat of an online game: the last lines (always as text, never as HTML), and for the two
// players a one-line form with the limits shown (200 characters; the server allows 5 messages
// in 10 seconds per seat and says so with `too_many_requests`).

import * as store from './store.js';
import * as actions from './actions.js';
import { t, lang, colorName } from './i18n.js';
import { bdi } from './bidi.js';
import { $button, $input } from './dom.js';

const $ = (id) => document.getElementById(id);
const MAX = 200;

export function mountChat() {
  const input = $input('chat-input');
  const form = $('chat-form');
  const limit = () => { $('chat-limit').textContent = t('chat.limit', { n: [...input.value].length }); };
  input.addEventListener('input', limit);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text || [...text].length > MAX) return;
    if (actions.onlineSend({ type: 'chat', text })) {
      input.value = '';
      limit();
    }
  });
  store.subscribe((s, prev) => {
    if (s.chat !== prev.chat || s.game !== prev.game || s.lang !== prev.lang || s.connection !== prev.connection) draw(s, prev);
    if (s.lang !== prev.lang) limit();
  });
  limit();
  draw(store.get(), {});
}

function draw(s, prev) {
  const g = s.game;
  const panel = $('chat');
  const show = store.isOnline(g);
  panel.hidden = !show;
  if (!show) return;
  const mine = store.mySeat(g);
  $('chat-form').hidden = !mine;
  $('chat-limit').hidden = !mine;
  $button('chat-input').disabled = s.connection !== 'live';
  $button('btn-chat').disabled = s.connection !== 'live';
  if (s.chat === prev.chat && s.lang === prev.lang && prev.game && prev.game.id === g.id) return;
  const list = $('chat-lines');
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.textContent = '';
  if (s.chat.length === 0) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = t('chat.none');
    list.append(li);
    return;
  }
  const seats = store.seats(s) || {};
  const fmt = new Intl.DateTimeFormat(lang() === 'pt' ? 'pt-BR' : 'en', { timeStyle: 'short' });
  for (const line of s.chat) {
    const li = document.createElement('li');
    li.dataset.n = String(line.n);
    if (line.from === mine) li.classList.add('own');
    const who = document.createElement('strong');
    const seat = seats[line.from];
    who.append(bdi((seat && seat.name) || colorName(line.from)), ':');
    who.className = 'chat-from ' + (line.from === 'black' ? 'black' : 'white');
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.textContent = line.text; // text only: markup in a message stays visible as typed
    text.dir = 'auto'; // its own direction, isolated from the line around it
    const when = document.createElement('time');
    if (line.at) {
      when.dateTime = line.at;
      const d = new Date(line.at);
      if (!Number.isNaN(d.getTime())) when.textContent = fmt.format(d);
    }
    li.append(who, ' ', text, ' ', when);
    list.append(li);
  }
  if (atBottom || !prev.chat || prev.chat.length === 0) list.scrollTop = list.scrollHeight;
}
