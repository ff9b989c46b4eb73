/*
 * Host harness around Bouffalo Lab's blsync_ble transfer, encryption and payload layers (bl_iot_sdk
 * components/stage/blsync_ble: transfer.c, encrypt_layer.c, payload.c, compiled unchanged beside this file; see
 * ../README.md). It plays the phone's GATT writes into pro_trans_read() and prints, per write, what the SDK did:
 * the value pro_trans_read() returned, the frames it put into the read characteristic (pfu_bytes_send) and the
 * events it handed to the application (pfn_recv_event).
 *
 * The application handler here is ours and does what blsync_ble.c's __recv_event does for the ids the app uses
 * (SSID, password, connect, get version, Wi-Fi state as cJSON_Print() of the same six fields, stop), plus the
 * product's handler of DATA_CUSTOM_DATA (0x13): tag 0x01 (setup ticket) is taken; tag 0x02 (status extension) is
 * answered with the JSON given by `extension`, or refused with PRO_ERROR when none was given (a stock module).
 *
 * stdin, one directive per line:
 *   mtu N                         ATT MTU − 3 the module uses for its answers (default 20)
 *   state N IP GW MASK BSSID SSIDHEX   what the Wi-Fi state answer reports (BSSID as 12 hex digits)
 *   extension JSON                the product's status extension answer (omit for a stock module)
 *   answerlen N                   CMD_WIFI_DATA_GET (0x0b) answers N bytes 'x' (to probe the answer size limit)
 *   write HEX                     one GATT write of the phone
 * stdout, one JSON object per write: {"ret":n,"answers":["hex",…],"events":[{"type":t,"id":i,"data":"hex"}]}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "transfer.h"

void *pvPortMalloc(size_t size) { return malloc(size); }
void vPortFree(void *ptr) { free(ptr); }
TickType_t xTaskGetTickCount(void) { return 1; }
SemaphoreHandle_t xSemaphoreCreateBinaryStatic(StaticSemaphore_t *buf) { buf->count = 0; return buf; }
BaseType_t xSemaphoreTake(SemaphoreHandle_t s, TickType_t ticks) { (void)s; (void)ticks; return pdTRUE; }
BaseType_t xSemaphoreGive(SemaphoreHandle_t s) { (void)s; return pdTRUE; }

static struct pro_dev dev;
static pro_handle_t handle;
static char out[65536];
static size_t out_len;
static char events[65536];
static size_t events_len;
static int answer_count, event_count;

static int st_state = 0;
static char st_ip[16] = "0.0.0.0", st_gw[16] = "0.0.0.0", st_mask[16] = "0.0.0.0", st_bssid[20] = "00:00:00:00:00:00";
static char st_ssid[33];
static char extension[257];
static int has_extension = 0;
static int answer_len = 0;

static void hex_append(char *buf, size_t *len, const uint8_t *bytes, size_t n) {
    for (size_t i = 0; i < n; i++) *len += (size_t)sprintf(buf + *len, "%02x", bytes[i]);
}

static int bytes_send(void *p_drv, const void *buf, size_t bytes) {
    (void)p_drv;
    out_len += (size_t)sprintf(out + out_len, "%s\"", answer_count++ ? "," : "");
    hex_append(out, &out_len, buf, bytes);
    out_len += (size_t)sprintf(out + out_len, "\"");
    return 0;
}

static int recv_event(void *p_drv, struct pro_event *ev) {
    (void)p_drv;
    events_len += (size_t)sprintf(events + events_len, "%s{\"type\":%d,\"id\":%d,\"data\":\"", event_count++ ? "," : "",
                                  (int)ev->type, ev->event_id);
    hex_append(events, &events_len, ev->p_buf, ev->length);
    events_len += (size_t)sprintf(events + events_len, "\"}");
    if (ev->type == PROTOCOL_EVENT_DATA) {
        const uint8_t *b = ev->p_buf;
        switch (ev->event_id) {
        case DATA_STA_WIFI_BSSID:
        case DATA_STA_WIFI_SSID:
        case DATA_STA_WIFI_PASSWORD:
            return PRO_OK;
        case DATA_CUSTOM_DATA:
            if (ev->length >= 1 && b[0] == 0x01) return PRO_OK;
            if (ev->length == 1 && b[0] == 0x02 && has_extension) {
                pro_trans_layer_ack_read(handle, extension, strlen(extension));
                return PRO_OK;
            }
            return PRO_ERROR;
        default:
            return PRO_ERROR;
        }
    }
    switch (ev->event_id) {
    case CMD_CONNECT_WIFI:
    case CMD_DISCONNECT_WIFI:
    case CMD_PROV_STOP:
        return PRO_OK;
    case CMD_GET_VERSION:
        pro_trans_layer_ack_read(handle, "v1.1.0", sizeof("v1.1.0"));
        return PRO_OK;
    case CMD_WIFI_DATA_GET: {
        char *big = malloc((size_t)answer_len + 1);
        memset(big, 'x', (size_t)answer_len);
        pro_trans_layer_ack_read(handle, big, (size_t)answer_len);
        free(big);
        return PRO_OK;
    }
    case CMD_WIFI_STATE_GET: {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "state", st_state);
        cJSON_AddStringToObject(root, "ip", st_ip);
        cJSON_AddStringToObject(root, "gw", st_gw);
        cJSON_AddStringToObject(root, "mask", st_mask);
        cJSON_AddStringToObject(root, "ssid", st_ssid);
        cJSON_AddStringToObject(root, "bssid", st_bssid);
        char *json = cJSON_Print(root);
        pro_trans_layer_ack_read(handle, json, strlen(json));
        cJSON_Delete(root);
        free(json);
        return PRO_OK;
    }
    default:
        return PRO_ERROR;
    }
}

static const struct pro_func funcs = {bytes_send, recv_event};

static size_t unhex(const char *s, uint8_t *dst, size_t max) {
    size_t n = 0;
    while (s[0] && s[1] && n < max) {
        unsigned v;
        if (sscanf(s, "%2x", &v) != 1) break;
        dst[n++] = (uint8_t)v;
        s += 2;
    }
    return n;
}

int main(void) {
    static char line[8192];
    uint16_t mtu = 20;
    setvbuf(stdout, NULL, _IONBF, 0);
    handle = pro_trans_init(&dev, &funcs, NULL);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (strncmp(line, "mtu ", 4) == 0) {
            mtu = (uint16_t)atoi(line + 4);
        } else if (strncmp(line, "answerlen ", 10) == 0) {
            answer_len = atoi(line + 10);
        } else if (strncmp(line, "extension ", 10) == 0) {
            snprintf(extension, sizeof extension, "%s", line + 10);
            has_extension = 1;
        } else if (strncmp(line, "state ", 6) == 0) {
            char bssid[13] = {0}, ssid_hex[80] = {0};
            uint8_t b[6] = {0};
            memset(st_ssid, 0, sizeof st_ssid);
            sscanf(line + 6, "%d %15s %15s %15s %12s %79s", &st_state, st_ip, st_gw, st_mask, bssid, ssid_hex);
            unhex(bssid, b, 6);
            sprintf(st_bssid, "%02X:%02X:%02X:%02X:%02X:%02X", b[0], b[1], b[2], b[3], b[4], b[5]);
            unhex(ssid_hex, (uint8_t *)st_ssid, 32);
        } else if (strncmp(line, "write ", 6) == 0) {
            static uint8_t frame[512];
            size_t n = unhex(line + 6, frame, sizeof frame);
            out_len = events_len = 0;
            answer_count = event_count = 0;
            out[0] = events[0] = 0;
            int ret = pro_trans_read(handle, frame, n, mtu);
            printf("{\"ret\":%d,\"answers\":[%s],\"events\":[%s]}\n", ret, out, events);
        }
    }
    return 0;
}
