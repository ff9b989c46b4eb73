import { catalogue } from "./catalogue.ts";

/**
 * Texts of the one input rule at the edge in the five languages (spec §1); English is the source. Used by
 * http/validation.ts (forbidden characters, too many entries) and http/edge.ts (body, URL and header limits).
 */
export const edgeMessages = catalogue(
  {
    "input.forbiddenCharacters":
      "{field} contains characters that are not allowed (control characters or broken text).",
    "input.tooManyEntries": "{field} may have at most {max, plural, one {# entry} other {# entries}}.",
    "input.tooManyItems": "{field} may hold at most {max, plural, one {# item} other {# items}}.",
    "input.payloadTooLarge": "The request is too large: at most {max} KB.",
    "input.uriTooLong":
      "The address of the request is too long: at most {max, plural, one {# character} other {# characters}}.",
    "input.unsupportedMediaType": "This kind of request body is not accepted here.",
    "input.invalidBody": "The request body could not be read: it is not valid JSON or form data.",
    "input.badUrl": "The address of the request is not valid.",
    "input.badHeader": "The {header} header contains characters that are not allowed.",
    "input.headersTooLarge": "The request headers are too large.",
  },
  {
    "zh-Hans": {
      "input.forbiddenCharacters": "{field} 含有不允许的字符（控制字符或损坏的文本）。",
      "input.tooManyEntries": "{field} 最多 {max} 项。",
      "input.tooManyItems": "{field} 最多包含 {max} 项。",
      "input.payloadTooLarge": "请求过大：最多 {max} KB。",
      "input.uriTooLong": "请求地址过长：最多 {max} 个字符。",
      "input.unsupportedMediaType": "此处不接受这种请求内容。",
      "input.invalidBody": "无法读取请求内容：不是有效的 JSON 或表单数据。",
      "input.badUrl": "请求地址无效。",
      "input.badHeader": "请求头 {header} 含有不允许的字符。",
      "input.headersTooLarge": "请求头过大。",
    },
    es: {
      "input.forbiddenCharacters": "{field} contiene caracteres no permitidos (caracteres de control o texto dañado).",
      "input.tooManyEntries":
        "{field} puede tener como máximo {max, plural, one {# entrada} many {# entradas} other {# entradas}}.",
      "input.tooManyItems":
        "{field} puede contener como máximo {max, plural, one {# elemento} many {# elementos} other {# elementos}}.",
      "input.payloadTooLarge": "La solicitud es demasiado grande: como máximo {max} KB.",
      "input.uriTooLong":
        "La dirección de la solicitud es demasiado larga: como máximo {max, plural, one {# carácter} many {# caracteres} other {# caracteres}}.",
      "input.unsupportedMediaType": "Este tipo de contenido de solicitud no se acepta aquí.",
      "input.invalidBody": "No se pudo leer el contenido de la solicitud: no es JSON ni datos de formulario válidos.",
      "input.badUrl": "La dirección de la solicitud no es válida.",
      "input.badHeader": "La cabecera {header} contiene caracteres no permitidos.",
      "input.headersTooLarge": "Las cabeceras de la solicitud son demasiado grandes.",
    },
    ru: {
      "input.forbiddenCharacters":
        "Поле {field} содержит недопустимые символы (управляющие символы или повреждённый текст).",
      "input.tooManyEntries":
        "Поле {field} может содержать не более {max, plural, one {# записи} few {# записей} many {# записей} other {# записи}}.",
      "input.tooManyItems":
        "Поле {field} может содержать не более {max, plural, one {# элемента} few {# элементов} many {# элементов} other {# элемента}}.",
      "input.payloadTooLarge": "Запрос слишком велик: не более {max} КБ.",
      "input.uriTooLong":
        "Адрес запроса слишком длинный: не более {max, plural, one {# символа} few {# символов} many {# символов} other {# символа}}.",
      "input.unsupportedMediaType": "Такое содержимое запроса здесь не принимается.",
      "input.invalidBody": "Не удалось прочитать содержимое запроса: это не корректный JSON и не данные формы.",
      "input.badUrl": "Адрес запроса недействителен.",
      "input.badHeader": "Заголовок {header} содержит недопустимые символы.",
      "input.headersTooLarge": "Заголовки запроса слишком велики.",
    },
    fr: {
      "input.forbiddenCharacters":
        "{field} contient des caractères non autorisés (caractères de contrôle ou texte endommagé).",
      "input.tooManyEntries":
        "{field} peut avoir au plus {max, plural, one {# entrée} many {# entrées} other {# entrées}}.",
      "input.tooManyItems":
        "{field} peut contenir au plus {max, plural, one {# élément} many {# éléments} other {# éléments}}.",
      "input.payloadTooLarge": "La requête est trop volumineuse : {max} Ko au plus.",
      "input.uriTooLong":
        "L'adresse de la requête est trop longue : au plus {max, plural, one {# caractère} many {# caractères} other {# caractères}}.",
      "input.unsupportedMediaType": "Ce type de contenu de requête n'est pas accepté ici.",
      "input.invalidBody": "Le contenu de la requête n'a pas pu être lu : ce n'est ni du JSON ni un formulaire valide.",
      "input.badUrl": "L'adresse de la requête n'est pas valide.",
      "input.badHeader": "L'en-tête {header} contient des caractères non autorisés.",
      "input.headersTooLarge": "Les en-têtes de la requête sont trop volumineux.",
    },
  },
);
