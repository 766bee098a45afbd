/**
 * The framing of a server-sent event stream (the HTML standard's "event stream interpretation",
 * section 9.2.6), as far as a completion stream needs it: lines end with CRLF, LF or CR, one
 * possibly split across two chunks; a line starting with ':' is a comment (': keep-alive',
 * OpenRouter's ': OPENROUTER PROCESSING'); `data` lines join with a newline; a blank line ends the
 * event; an event without data is none; the other fields (`event`, `id`, `retry`) name nothing a
 * completion needs. The text comes decoded (TextDecoder drops a leading byte-order mark).
 *
 * Written here rather than taken from eventsource-parser, which did the same in a chunk of its
 * own: 1.3 KB over the wire in every game, for about thirty lines.
 */

export interface EventReader {
  /** More of the stream's text, as it arrived. */
  feed(text: string): void;
  /** The stream ended: its last line and its last event end with it, blank line or not. */
  end(): void;
}

/** Reads events from text fed in pieces, handing each event's data to `onData`. */
export function eventReader(onData: (data: string) => void): EventReader {
  let line = '';
  let data: string[] = [];
  // A chunk ended with CR: a LF at the start of the next belongs to the same line ending.
  let afterCr = false;

  function endLine() {
    if (line === '') {
      if (data.length > 0) onData(data.join('\n'));
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon === -1 ? '' : line.slice(colon + 1);
    data.push(value.startsWith(' ') ? value.slice(1) : value);
  }

  function feed(text: string) {
    // Nothing yet (a character split between two chunks decodes to nothing at first).
    if (text === '') return;
    let start = afterCr && text.startsWith('\n') ? 1 : 0;
    afterCr = false;
    for (let index = start; index < text.length; index++) {
      const character = text[index];
      if (character !== '\n' && character !== '\r') continue;
      line += text.slice(start, index);
      endLine();
      line = '';
      if (character === '\r') {
        if (index + 1 === text.length) afterCr = true;
        else if (text[index + 1] === '\n') index++;
      }
      start = index + 1;
    }
    line += text.slice(start);
  }

  return {
    feed,
    end() {
      if (line !== '') endLine();
      line = '';
      endLine();
    },
  };
}
