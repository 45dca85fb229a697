/**
 * The link of a question that waits (the `web` setting): a server of its own,
 * from when the question heads the waiting line until it ends or is opened
 * in the terminal. A page that connects opens the question there
 * (tools/engine/waiting.ts); when it closes, each page is told why.
 */
import type { FormSpec } from "../../machines/spec.js";
import { type WaitingChart, waitsForKey } from "../../machines/waiting.js";
import { formTitle } from "../../renderers/web/offer.js";
import { openWebServer, type WebServer } from "../../renderers/web/server.js";

export interface LinkedQuestion {
  form: { spec: FormSpec };
  /** Its state: when asked, its timeout, where it is open, the key that closed it. */
  chart: WaitingChart;
  /** Its link's server, while it waits or is open there. */
  page?: WebServer;
  /** Its server is being started. */
  linking?: boolean;
}

/** What a question's page says when it closes, by how the question ended. */
export const PAGE_CLOSED: Readonly<Record<string, string>> = {
  answered: "Answered in the terminal.",
  refused: "Refused in the terminal.",
  withdrawn: "The model withdrew this question.",
  timedOut: "This question timed out: the model got the timed-out result.",
  notAnswered: "The session ended before this question was answered.",
};

/** `ready` once it listens; an address that cannot be listened on leaves the question without a link. */
export function startPage(
  question: LinkedQuestion,
  address: string,
  on: { opened: (page: WebServer) => void; ready: () => void },
): void {
  question.linking = true;
  const opened = () => question.page && on.opened(question.page);
  void openWebServer({
    address,
    title: formTitle(question.form.spec),
    where: "The question left the terminal's queue while this page has it; closing the page puts it back.",
    opened,
  }).then(
    (server) => {
      question.linking = false;
      if (!waitsForKey(question.chart)) return void server.close("This question is not waiting any more.");
      question.page = server;
      on.ready();
    },
    () => {},
  );
}

export function closePage(question: LinkedQuestion, text: string): void {
  const page = question.page;
  question.page = undefined;
  if (page) void page.close(text);
}
