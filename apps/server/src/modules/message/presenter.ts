import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  type TMessage,
  type TMessageEvent,
  type TMessageTypeValue,
} from "@aquapilot/contract";
import type { MessagesTable } from "../../db/schema-messages.ts";
import { translate } from "../../http/messages.ts";

/**
 * The stored texts of a message worded by the catalogue (messages render in the reader's current
 * language): the title and content in `lang` for writing now, plus the keys and parameters that
 * {@link presentMessage} translates again at each read.
 */
export function catalogueTexts(
  lang: Language,
  titleKey: string,
  contentKey: string,
  params: Record<string, string | number> = {},
): Pick<MessagesTable, "title" | "content" | "title_key" | "content_key" | "params_json"> {
  return {
    title: translate(lang, titleKey, params),
    content: translate(lang, contentKey, params),
    title_key: titleKey,
    content_key: contentKey,
    params_json: JSON.stringify(params),
  };
}

/** The title and content of a stored message in `lang`: re-translated, the announcement's own text, or as stored. */
function textsIn(row: MessagesTable, lang: Language | undefined): { title: string; content: string } {
  if (lang && row.title_key && row.content_key) {
    let params: Record<string, string | number> = {};
    try {
      params = JSON.parse(row.params_json ?? "{}");
    } catch {
      // unreadable parameters: the keys alone still translate
    }
    return { title: translate(lang, row.title_key, params), content: translate(lang, row.content_key, params) };
  }
  if (lang && row.texts_json) {
    try {
      const texts = JSON.parse(row.texts_json) as Partial<Record<Language, { title?: string; content?: string }>>;
      const own = texts[lang];
      if (own?.title && own.content) return { title: own.title, content: own.content };
    } catch {
      // fall back to the stored text
    }
  }
  return { title: row.title, content: row.content };
}

/**
 * The wire shape (contract ZMessage) of a stored message row, worded in `lang` (the reader's current language) when
 * the row keeps its catalogue keys or an announcement has that language; else as stored.
 */
export function presentMessage(row: MessagesTable, lang?: Language): TMessage {
  return {
    id: row.id,
    type: row.type as TMessageTypeValue,
    ...textsIn(row, lang),
    isRead: row.is_read === 1,
    readTime: row.read_time,
    creationTime: row.creation_time,
    deviceId: row.device_id,
    deviceName: row.device_name,
    familyId: row.family_id,
    event: row.event as TMessageEvent | null,
    closeReason: row.close_reason,
  };
}

/** A stored users.language_type as a spec §1 language (unknown → zh-Hans, the default and fallback). */
export function asLanguage(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : DEFAULT_LANGUAGE;
}
