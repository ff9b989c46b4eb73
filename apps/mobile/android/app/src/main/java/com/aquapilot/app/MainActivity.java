package com.aquapilot.app;

import android.os.Bundle;
import com.getcapacitor.BridgeActivity;

/** The Android shell: Capacitor's activity with our own plugins registered before the bridge starts. */
public class MainActivity extends BridgeActivity {

    @Override
    public void onCreate(Bundle savedInstanceState) {
        registerPlugin(AquaWifiPlugin.class);
        registerPlugin(AquaShellPlugin.class);
        super.onCreate(savedInstanceState);
    }
}
