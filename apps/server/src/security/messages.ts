import { catalogue } from "../http/catalogue.ts";

/**
 * Texts of the rate limits and the sign-in lockout (security/limits.ts) in the five languages; English is
 * the source. Each is given `seconds` (the Retry-After value) and `minutes` (the same, rounded up); the `…Seconds`
 * texts are used under two minutes, the `…Minutes` texts from two minutes on.
 */
export const securityMessages = catalogue(
  {
    "limits.retrySeconds": "Too many requests. Please try again in {seconds} s.",
    "limits.retryMinutes":
      "Too many requests. Please try again in {minutes, plural, one {# minute} other {# minutes}}.",
    "limits.signInSeconds": "Too many failed sign-ins. Please wait {seconds} s before trying again.",
    "limits.signInMinutes":
      "Too many failed sign-ins. Password sign-in is paused; please try again in {minutes, plural, one {# minute} other {# minutes}} or reset your password.",
  },
  {
    "zh-Hans": {
      "limits.retrySeconds": "请求过于频繁，请 {seconds} 秒后再试。",
      "limits.retryMinutes": "请求过于频繁，请 {minutes} 分钟后再试。",
      "limits.signInSeconds": "登录失败次数过多，请等待 {seconds} 秒后再试。",
      "limits.signInMinutes": "登录失败次数过多，密码登录已暂停。请 {minutes} 分钟后再试，或重置密码。",
    },
    es: {
      "limits.retrySeconds": "Demasiadas solicitudes. Inténtelo de nuevo dentro de {seconds} s.",
      "limits.retryMinutes":
        "Demasiadas solicitudes. Inténtelo de nuevo dentro de {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}.",
      "limits.signInSeconds": "Demasiados inicios de sesión fallidos. Espere {seconds} s antes de intentarlo de nuevo.",
      "limits.signInMinutes":
        "Demasiados inicios de sesión fallidos. El inicio de sesión con contraseña está en pausa; inténtelo de nuevo dentro de {minutes, plural, one {# minuto} many {# minutos} other {# minutos}} o restablezca su contraseña.",
    },
    ru: {
      "limits.retrySeconds": "Слишком много запросов. Повторите попытку через {seconds} с.",
      "limits.retryMinutes":
        "Слишком много запросов. Повторите попытку через {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}}.",
      "limits.signInSeconds": "Слишком много неудачных попыток входа. Подождите {seconds} с и попробуйте снова.",
      "limits.signInMinutes":
        "Слишком много неудачных попыток входа. Вход по паролю приостановлен; попробуйте снова через {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}} или сбросьте пароль.",
    },
    fr: {
      "limits.retrySeconds": "Trop de requêtes. Veuillez réessayer dans {seconds} s.",
      "limits.retryMinutes":
        "Trop de requêtes. Veuillez réessayer dans {minutes, plural, one {# minute} many {# minutes} other {# minutes}}.",
      "limits.signInSeconds": "Trop de connexions échouées. Attendez {seconds} s avant de réessayer.",
      "limits.signInMinutes":
        "Trop de connexions échouées. La connexion par mot de passe est suspendue ; réessayez dans {minutes, plural, one {# minute} many {# minutes} other {# minutes}} ou réinitialisez votre mot de passe.",
    },
  },
);
