import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/**
 * Texts of the message module in the five languages (spec §1); English is the source. `{device}` is the device's
 * name; "Device offline" and "Excessive flow" are the spec §8 labels.
 */
export const messageMessages = catalogue(
  {
    "message.notFound": "Message not found.",
    "message.type.1": "Device alarm",
    "message.type.2": "Device notice",
    "message.type.3": "Announcement",
    "message.leak.title": "Leak detected",
    "message.leak.content":
      "{device} closed its valve because the leak sensor detected water. Check for leaks before opening it again.",
    "message.excessiveFlow.title": "Excessive flow",
    "message.excessiveFlow.content": "{device} closed its valve because the water flow was too high.",
    "message.continuousUse.title": "Water used too long",
    "message.continuousUse.content": "{device} closed its valve because water ran without a break for too long.",
    "message.valveButton.title": "Valve closed",
    "message.valveButton.content": "{device} was closed with the button on the valve.",
    "message.offline.title": "Device offline",
    "message.offline.content":
      "{device} has been offline for more than {minutes, plural, one {# minute} other {# minutes}}. Check its power supply and Wi-Fi.",
    "message.regenerationFinished.title": "Regeneration finished",
    "message.regenerationFinished.content": "{device} finished its regeneration and is back in service.",
    "message.saltLow.title": "Salt low",
    "message.saltLow.content":
      "{device} is running low on salt: about {days, plural, one {# day} other {# days}} left. Please refill the brine tank.",
    "message.saltEmpty.content": "{device} is almost out of salt. Please refill the brine tank.",
    "message.otaFinished.title": "Firmware updated",
    "message.otaFinished.content": "{device} finished its firmware update.",
    "message.otaFailed.title": "Firmware update failed",
    "message.otaFailed.content":
      "The firmware update of {device} stopped at {progress}%. The device keeps its previous version.",
    "message.test.title": "Test message",
    "message.test.content": "This is a test message. Your message centre and push notifications work.",
    "message.afterSaleAnswered.title": "After-sales request answered",
    "message.afterSaleAnswered.content": "The service team answered your request about {device}: {reply}",
    "message.familyRemoved.title": "Removed from a household",
    "message.familyRemoved.content":
      "The administrator of {family} removed you from the household. Its devices no longer appear in your app.",
    "message.familyRemovedBy.title": "Removed from a household",
    "message.familyRemovedBy.content":
      "You were removed from {family} by {administrator}. Its devices no longer appear in your app.",
    "message.familyDeleted.title": "Household deleted",
    "message.familyDeleted.content":
      "{administrator} deleted the household {family}. Its devices no longer appear in your app.",
    "message.administratorReceived.title": "You are now the administrator",
    "message.administratorReceived.content": "{administrator} made you the administrator of {family}.",
    "message.administratorHandedOver.title": "Administrator changed",
    "message.administratorHandedOver.content": "You made {member} the administrator of {family}.",
  },
  {
    "zh-Hans": {
      "message.notFound": "消息不存在。",
      "message.type.1": "设备告警",
      "message.type.2": "设备通知",
      "message.type.3": "平台公告",
      "message.leak.title": "检测到漏水",
      "message.leak.content": "{device} 的漏水传感器检测到水，已关闭阀门。请先检查漏水情况再重新打开。",
      "message.excessiveFlow.title": "流量过大",
      "message.excessiveFlow.content": "{device} 因瞬时流量过大已关闭阀门。",
      "message.continuousUse.title": "连续用水时间过长",
      "message.continuousUse.content": "{device} 因连续用水时间过长已关闭阀门。",
      "message.valveButton.title": "阀门已关闭",
      "message.valveButton.content": "{device} 已通过阀门上的按键关闭。",
      "message.offline.title": "设备离线",
      "message.offline.content": "{device} 已离线超过 {minutes} 分钟。请检查电源和 Wi-Fi。",
      "message.regenerationFinished.title": "再生完成",
      "message.regenerationFinished.content": "{device} 已完成再生，恢复正常供水。",
      "message.saltLow.title": "盐量不足",
      "message.saltLow.content": "{device} 的盐量不足：大约还能用 {days} 天。请为盐箱加盐。",
      "message.saltEmpty.content": "{device} 的盐快用完了。请为盐箱加盐。",
      "message.otaFinished.title": "固件已更新",
      "message.otaFinished.content": "{device} 已完成固件升级。",
      "message.otaFailed.title": "固件升级失败",
      "message.otaFailed.content": "{device} 的固件升级在 {progress}% 时中止，设备保留原版本。",
      "message.test.title": "测试消息",
      "message.test.content": "这是一条测试消息。您的消息中心和推送通知工作正常。",
      "message.afterSaleAnswered.title": "售后申请已回复",
      "message.afterSaleAnswered.content": "服务团队已回复您关于 {device} 的申请：{reply}",
      "message.familyRemoved.title": "已被移出家庭",
      "message.familyRemoved.content": "{family} 的管理员已将您移出该家庭，其设备将不再显示在您的 App 中。",
      "message.familyRemovedBy.title": "已被移出家庭",
      "message.familyRemovedBy.content": "{administrator} 已将您移出 {family}，其设备将不再显示在您的 App 中。",
      "message.familyDeleted.title": "家庭已删除",
      "message.familyDeleted.content": "{administrator} 已删除家庭 {family}，其设备将不再显示在您的 App 中。",
      "message.administratorReceived.title": "您已成为管理员",
      "message.administratorReceived.content": "{administrator} 已将 {family} 的管理员转让给您。",
      "message.administratorHandedOver.title": "管理员已变更",
      "message.administratorHandedOver.content": "您已将 {family} 的管理员转让给 {member}。",
    },
    es: {
      "message.notFound": "Mensaje no encontrado.",
      "message.type.1": "Alarma del dispositivo",
      "message.type.2": "Aviso del dispositivo",
      "message.type.3": "Comunicado",
      "message.leak.title": "Fuga detectada",
      "message.leak.content":
        "{device} cerró su válvula porque el sensor de fugas detectó agua. Compruebe si hay fugas antes de abrirla de nuevo.",
      "message.excessiveFlow.title": "Caudal excesivo",
      "message.excessiveFlow.content": "{device} cerró su válvula porque el caudal de agua era demasiado alto.",
      "message.continuousUse.title": "Uso de agua demasiado largo",
      "message.continuousUse.content":
        "{device} cerró su válvula porque el agua corrió sin interrupción durante demasiado tiempo.",
      "message.valveButton.title": "Válvula cerrada",
      "message.valveButton.content": "{device} se cerró con el botón de la válvula.",
      "message.offline.title": "Dispositivo sin conexión",
      "message.offline.content":
        "{device} lleva más de {minutes, plural, one {# minuto} many {# minutos} other {# minutos}} sin conexión. Compruebe su alimentación y la Wi-Fi.",
      "message.regenerationFinished.title": "Regeneración terminada",
      "message.regenerationFinished.content": "{device} terminó su regeneración y vuelve a estar en servicio.",
      "message.saltLow.title": "Sal baja",
      "message.saltLow.content":
        "A {device} le queda poca sal: {days, plural, one {aproximadamente # día} many {unos # días} other {unos # días}}. Rellene el tanque de salmuera.",
      "message.saltEmpty.content": "A {device} casi no le queda sal. Rellene el tanque de salmuera.",
      "message.otaFinished.title": "Firmware actualizado",
      "message.otaFinished.content": "{device} terminó la actualización de firmware.",
      "message.otaFailed.title": "Error en la actualización de firmware",
      "message.otaFailed.content":
        "La actualización de firmware de {device} se detuvo al {progress} %. El dispositivo conserva su versión anterior.",
      "message.test.title": "Mensaje de prueba",
      "message.test.content":
        "Este es un mensaje de prueba. Su centro de mensajes y las notificaciones push funcionan.",
      "message.afterSaleAnswered.title": "Solicitud de posventa respondida",
      "message.afterSaleAnswered.content": "El servicio técnico respondió a su solicitud sobre {device}: {reply}",
      "message.familyRemoved.title": "Eliminado de un hogar",
      "message.familyRemoved.content":
        "El administrador de {family} le ha quitado del hogar. Sus dispositivos ya no aparecen en su app.",
      "message.familyRemovedBy.title": "Eliminado de un hogar",
      "message.familyRemovedBy.content":
        "{administrator} le quitó de {family}. Sus dispositivos ya no aparecen en su app.",
      "message.familyDeleted.title": "Hogar eliminado",
      "message.familyDeleted.content":
        "{administrator} eliminó el hogar {family}. Sus dispositivos ya no aparecen en su app.",
      "message.administratorReceived.title": "Ahora es el administrador",
      "message.administratorReceived.content": "{administrator} le nombró administrador de {family}.",
      "message.administratorHandedOver.title": "Administrador cambiado",
      "message.administratorHandedOver.content": "Nombró a {member} administrador de {family}.",
    },
    ru: {
      "message.notFound": "Сообщение не найдено.",
      "message.type.1": "Тревога устройства",
      "message.type.2": "Уведомление устройства",
      "message.type.3": "Объявление",
      "message.leak.title": "Обнаружена протечка",
      "message.leak.content":
        "{device} закрыл клапан: датчик протечки обнаружил воду. Проверьте протечки, прежде чем открыть его снова.",
      "message.excessiveFlow.title": "Чрезмерный расход",
      "message.excessiveFlow.content": "{device} закрыл клапан: расход воды был слишком большим.",
      "message.continuousUse.title": "Слишком долгий расход воды",
      "message.continuousUse.content": "{device} закрыл клапан: вода текла без перерыва слишком долго.",
      "message.valveButton.title": "Клапан закрыт",
      "message.valveButton.content": "{device} закрыт кнопкой на клапане.",
      "message.offline.title": "Устройство не в сети",
      "message.offline.content":
        "{device} не в сети более {minutes, plural, one {# минуты} few {# минут} many {# минут} other {# минуты}}. Проверьте питание и Wi-Fi.",
      "message.regenerationFinished.title": "Регенерация завершена",
      "message.regenerationFinished.content": "{device} завершил регенерацию и снова в работе.",
      "message.saltLow.title": "Мало соли",
      "message.saltLow.content":
        "В {device} заканчивается соль: {days, plural, one {остался примерно # день} few {осталось примерно # дня} many {осталось примерно # дней} other {осталось примерно # дня}}. Досыпьте соль в солевой бак.",
      "message.saltEmpty.content": "В {device} почти не осталось соли. Досыпьте соль в солевой бак.",
      "message.otaFinished.title": "Прошивка обновлена",
      "message.otaFinished.content": "{device} завершил обновление прошивки.",
      "message.otaFailed.title": "Ошибка обновления прошивки",
      "message.otaFailed.content":
        "Обновление прошивки {device} остановилось на {progress}%. Устройство сохраняет прежнюю версию.",
      "message.test.title": "Тестовое сообщение",
      "message.test.content": "Это тестовое сообщение. Центр сообщений и push-уведомления работают.",
      "message.afterSaleAnswered.title": "Ответ на сервисную заявку",
      "message.afterSaleAnswered.content": "Сервисная служба ответила на вашу заявку по устройству {device}: {reply}",
      "message.familyRemoved.title": "Вы удалены из дома",
      "message.familyRemoved.content":
        "Администратор дома «{family}» удалил вас из него. Его устройства больше не показываются в вашем приложении.",
      "message.familyRemovedBy.title": "Вы удалены из дома",
      "message.familyRemovedBy.content":
        "{administrator} удалил(а) вас из дома «{family}». Его устройства больше не показываются в вашем приложении.",
      "message.familyDeleted.title": "Дом удалён",
      "message.familyDeleted.content":
        "{administrator} удалил(а) дом «{family}». Его устройства больше не показываются в вашем приложении.",
      "message.administratorReceived.title": "Теперь вы администратор",
      "message.administratorReceived.content": "{administrator} назначил(а) вас администратором дома «{family}».",
      "message.administratorHandedOver.title": "Администратор сменился",
      "message.administratorHandedOver.content": "Вы назначили {member} администратором дома «{family}».",
    },
    fr: {
      "message.notFound": "Message introuvable.",
      "message.type.1": "Alarme de l'appareil",
      "message.type.2": "Avis de l'appareil",
      "message.type.3": "Annonce",
      "message.leak.title": "Fuite détectée",
      "message.leak.content":
        "{device} a fermé sa vanne car le capteur de fuite a détecté de l'eau. Vérifiez les fuites avant de la rouvrir.",
      "message.excessiveFlow.title": "Débit excessif",
      "message.excessiveFlow.content": "{device} a fermé sa vanne car le débit d'eau était trop élevé.",
      "message.continuousUse.title": "Utilisation d'eau trop longue",
      "message.continuousUse.content": "{device} a fermé sa vanne car l'eau a coulé sans interruption trop longtemps.",
      "message.valveButton.title": "Vanne fermée",
      "message.valveButton.content": "{device} a été fermé avec le bouton de la vanne.",
      "message.offline.title": "Appareil hors ligne",
      "message.offline.content":
        "{device} est hors ligne depuis plus de {minutes, plural, one {# minute} many {# minutes} other {# minutes}}. Vérifiez son alimentation et le Wi-Fi.",
      "message.regenerationFinished.title": "Régénération terminée",
      "message.regenerationFinished.content": "{device} a terminé sa régénération et est de nouveau en service.",
      "message.saltLow.title": "Sel bas",
      "message.saltLow.content":
        "{device} manque de sel : {days, plural, one {il reste environ # jour} many {il reste environ # jours} other {il reste environ # jours}}. Veuillez recharger le bac à sel.",
      "message.saltEmpty.content": "{device} n'a presque plus de sel. Veuillez recharger le bac à sel.",
      "message.otaFinished.title": "Micrologiciel mis à jour",
      "message.otaFinished.content": "{device} a terminé la mise à jour de son micrologiciel.",
      "message.otaFailed.title": "Échec de la mise à jour du micrologiciel",
      "message.otaFailed.content":
        "La mise à jour du micrologiciel de {device} s'est arrêtée à {progress} %. L'appareil garde sa version précédente.",
      "message.test.title": "Message de test",
      "message.test.content":
        "Ceci est un message de test. Votre centre de messages et les notifications push fonctionnent.",
      "message.afterSaleAnswered.title": "Demande après-vente traitée",
      "message.afterSaleAnswered.content":
        "Le service après-vente a répondu à votre demande concernant {device} : {reply}",
      "message.familyRemoved.title": "Retiré d'un foyer",
      "message.familyRemoved.content":
        "L'administrateur de {family} vous a retiré du foyer. Ses appareils n'apparaissent plus dans votre application.",
      "message.familyRemovedBy.title": "Retiré d'un foyer",
      "message.familyRemovedBy.content":
        "{administrator} vous a retiré du foyer {family}. Ses appareils n'apparaissent plus dans votre application.",
      "message.familyDeleted.title": "Foyer supprimé",
      "message.familyDeleted.content":
        "{administrator} a supprimé le foyer {family}. Ses appareils n'apparaissent plus dans votre application.",
      "message.administratorReceived.title": "Vous êtes maintenant l'administrateur",
      "message.administratorReceived.content": "{administrator} vous a nommé administrateur du foyer {family}.",
      "message.administratorHandedOver.title": "Administrateur changé",
      "message.administratorHandedOver.content": "Vous avez nommé {member} administrateur du foyer {family}.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof messageMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(messageMessages);
