package com.aquapilot.app;

import android.Manifest;
import com.getcapacitor.JSObject;
import com.getcapacitor.Plugin;
import com.getcapacitor.PluginCall;
import com.getcapacitor.PluginMethod;
import com.getcapacitor.annotation.CapacitorPlugin;
import com.getcapacitor.annotation.Permission;

/**
 * AquaShell (TypeScript side apps/mobile/src/plugins/shell): the native permissions of spec section 6 by
 * alias, and clearing the web view's cache. checkPermissions/requestPermissions come from Capacitor's Plugin class over
 * the aliases below; an alias whose permissions the manifest does not declare answers "denied" (apps/mobile/README.md
 * lists what is declared and why).
 */
@CapacitorPlugin(
    name = "AquaShell",
    permissions = {
        @Permission(alias = "camera", strings = { Manifest.permission.CAMERA }),
        @Permission(alias = "storage", strings = { Manifest.permission.READ_MEDIA_IMAGES }),
        @Permission(alias = "notifications", strings = { Manifest.permission.POST_NOTIFICATIONS }),
        @Permission(alias = "microphone", strings = { Manifest.permission.RECORD_AUDIO }),
        @Permission(alias = "contacts", strings = { Manifest.permission.READ_CONTACTS }),
        @Permission(alias = "calendar", strings = { Manifest.permission.READ_CALENDAR }),
        @Permission(alias = "phone", strings = { Manifest.permission.READ_PHONE_STATE }),
        @Permission(alias = "callLog", strings = { Manifest.permission.READ_CALL_LOG }),
        @Permission(alias = "sms", strings = { Manifest.permission.READ_SMS }),
        @Permission(alias = "sensors", strings = { Manifest.permission.BODY_SENSORS }),
        @Permission(alias = "activityRecognition", strings = { Manifest.permission.ACTIVITY_RECOGNITION })
    }
)
public class AquaShellPlugin extends Plugin {

    /** Clears the web view's HTTP cache, memory and disk (spec section 7 bridge "clear cache"). */
    @PluginMethod
    public void clearCache(PluginCall call) {
        getActivity()
            .runOnUiThread(() -> {
                getBridge().getWebView().clearCache(true);
                call.resolve(new JSObject());
            });
    }
}
