package com.aquapilot.app;

import android.Manifest;
import android.content.Context;
import android.net.ConnectivityManager;
import android.net.LinkAddress;
import android.net.LinkProperties;
import android.net.Network;
import android.net.NetworkCapabilities;
import android.net.NetworkRequest;
import android.net.wifi.ScanResult;
import android.net.wifi.WifiInfo;
import android.net.wifi.WifiManager;
import android.net.wifi.WifiNetworkSpecifier;
import android.os.Build;
import android.util.Base64;
import com.getcapacitor.JSArray;
import com.getcapacitor.JSObject;
import com.getcapacitor.Plugin;
import com.getcapacitor.PluginCall;
import com.getcapacitor.PluginMethod;
import com.getcapacitor.annotation.CapacitorPlugin;
import com.getcapacitor.annotation.Permission;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * AquaWifi (TypeScript side apps/mobile/src/plugins/wifi; docs/device-protocol.md section 13.6): the phone's
 * Wi-Fi for the old module's access-point setup. Joining uses WifiNetworkSpecifier (Android 10+: a network for this
 * app only, the system asks the user), and the join packet goes out of a UDP socket bound to that network with
 * Network.bindSocket, so its broadcast reaches the module even though the access point has no internet. Discovery broadcasts on
 * the home network (the process's default network). Answers have the contract's shapes.
 */
@CapacitorPlugin(
    name = "AquaWifi",
    permissions = {
        @Permission(alias = "location", strings = { Manifest.permission.ACCESS_FINE_LOCATION, Manifest.permission.ACCESS_COARSE_LOCATION })
    }
)
public class AquaWifiPlugin extends Plugin {

    /** The join packet is broadcast, as python-broadlink setup() sends it (broadlink/__init__.py line 332). */
    static final String JOIN_ADDRESS = "255.255.255.255";
    static final int MODULE_PORT = 80;
    /** How long to listen for the product firmware's acknowledgement; stock modules send none and nothing waits on it. */
    static final int JOIN_ACK_TIMEOUT_MS = 500;
    static final int JOIN_TIMEOUT_MS = 30000;

    private final ExecutorService io = Executors.newSingleThreadExecutor();
    private ConnectivityManager.NetworkCallback apCallback;
    private Network apNetwork;

    private WifiManager wifi() {
        return (WifiManager) getContext().getApplicationContext().getSystemService(Context.WIFI_SERVICE);
    }

    private ConnectivityManager connectivity() {
        return (ConnectivityManager) getContext().getSystemService(Context.CONNECTIVITY_SERVICE);
    }

    private static String band(int frequencyMhz) {
        if (frequencyMhz >= 2400 && frequencyMhz < 2500) return "2.4GHz";
        if (frequencyMhz >= 4900 && frequencyMhz < 5900) return "5GHz";
        return null;
    }

    private static String unquote(String ssid) {
        if (ssid == null || "<unknown ssid>".equals(ssid)) return null;
        return ssid.startsWith("\"") && ssid.endsWith("\"") ? ssid.substring(1, ssid.length() - 1) : ssid;
    }

    /** `{connected, ssid, band, ip}` of the phone's Wi-Fi (the contract's ZPhoneWifi). */
    private JSObject currentNetwork() {
        JSObject out = new JSObject();
        WifiInfo info = wifi().getConnectionInfo();
        String ssid = info == null ? null : unquote(info.getSSID());
        String ip = null;
        Network active = connectivity().getActiveNetwork();
        NetworkCapabilities caps = active == null ? null : connectivity().getNetworkCapabilities(active);
        boolean onWifi = caps != null && caps.hasTransport(NetworkCapabilities.TRANSPORT_WIFI);
        LinkProperties link = active == null ? null : connectivity().getLinkProperties(active);
        if (onWifi && link != null) {
            for (LinkAddress address : link.getLinkAddresses()) {
                if (address.getAddress() instanceof Inet4Address) ip = address.getAddress().getHostAddress();
            }
        }
        out.put("connected", onWifi && ssid != null);
        out.put("ssid", onWifi ? ssid : null);
        out.put("band", onWifi && info != null ? band(info.getFrequency()) : null);
        out.put("ip", ip);
        return out;
    }

    /** The phone's current Wi-Fi; needs the location permission for the name. */
    @PluginMethod
    public void getCurrentNetwork(PluginCall call) {
        call.resolve(currentNetwork());
    }

    /** `{networks: [{ssid, band, secured, rssi}]}` from the last scan (a new scan is started for the next call). */
    @PluginMethod
    public void getNetworks(PluginCall call) {
        WifiManager manager = wifi();
        manager.startScan();
        JSArray networks = new JSArray();
        List<ScanResult> results = manager.getScanResults();
        for (ScanResult r : results) {
            if (r.SSID == null || r.SSID.isEmpty() || band(r.frequency) == null) continue;
            JSObject n = new JSObject();
            n.put("ssid", r.SSID);
            n.put("band", band(r.frequency));
            n.put("secured", r.capabilities.contains("WPA") || r.capabilities.contains("WEP") || r.capabilities.contains("SAE"));
            n.put("rssi", r.level);
            networks.put(n);
        }
        JSObject out = new JSObject();
        out.put("networks", networks);
        call.resolve(out);
    }

    /** Joins the open access point `ssid` for this app (WifiNetworkSpecifier); `{ok, error}`. */
    @PluginMethod
    public void joinAccessPoint(PluginCall call) {
        String ssid = call.getString("ssid");
        if (ssid == null || ssid.isEmpty()) {
            call.reject("ssid missing");
            return;
        }
        if (Build.VERSION.SDK_INT < Build.VERSION_CODES.Q) {
            call.resolve(result(false, "failed"));
            return;
        }
        releaseAccessPoint();
        WifiNetworkSpecifier specifier = new WifiNetworkSpecifier.Builder().setSsid(ssid).build();
        NetworkRequest request = new NetworkRequest.Builder()
            .addTransportType(NetworkCapabilities.TRANSPORT_WIFI)
            .removeCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
            .setNetworkSpecifier(specifier)
            .build();
        apCallback = new ConnectivityManager.NetworkCallback() {
            private boolean answered = false;

            @Override
            public void onAvailable(Network network) {
                apNetwork = network;
                if (!answered) {
                    answered = true;
                    call.resolve(result(true, null));
                }
            }

            @Override
            public void onUnavailable() {
                if (!answered) {
                    answered = true;
                    call.resolve(result(false, "not-found"));
                }
            }

            @Override
            public void onLost(Network network) {
                if (network.equals(apNetwork)) apNetwork = null;
            }
        };
        connectivity().requestNetwork(request, apCallback, JOIN_TIMEOUT_MS);
    }

    private static JSObject result(boolean ok, String error) {
        JSObject out = new JSObject();
        out.put("ok", ok);
        out.put("error", error);
        return out;
    }

    private void releaseAccessPoint() {
        if (apCallback != null) {
            try {
                connectivity().unregisterNetworkCallback(apCallback);
            } catch (IllegalArgumentException ignored) {
                // already released
            }
        }
        apCallback = null;
        apNetwork = null;
    }

    /** Releases the access point; the phone goes back to its home network. Answers the phone's Wi-Fi then. */
    @PluginMethod
    public void leaveAccessPoint(PluginCall call) {
        releaseAccessPoint();
        call.resolve(currentNetwork());
    }

    /**
     * Broadcasts the join packet (base64) to 255.255.255.255:80 from a socket bound to the access point and answers once
     * it is out; `{acknowledged}` says whether a product module's acknowledgement came within 0.5 s.
     */
    @PluginMethod
    public void sendJoinPacket(PluginCall call) {
        String packet = call.getString("packet");
        Network network = apNetwork;
        if (packet == null || network == null) {
            call.reject(packet == null ? "packet missing" : "not joined to the access point");
            return;
        }
        io.execute(() -> {
            try (DatagramSocket socket = new DatagramSocket()) {
                network.bindSocket(socket);
                socket.setBroadcast(true);
                socket.setSoTimeout(JOIN_ACK_TIMEOUT_MS);
                byte[] bytes = Base64.decode(packet, Base64.NO_WRAP);
                socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getByName(JOIN_ADDRESS), MODULE_PORT));
                byte[] buffer = new byte[2048];
                boolean acknowledged;
                try {
                    socket.receive(new DatagramPacket(buffer, buffer.length));
                    acknowledged = true;
                } catch (SocketTimeoutException timeout) {
                    acknowledged = false;
                }
                JSObject out = new JSObject();
                out.put("acknowledged", acknowledged);
                call.resolve(out);
            } catch (Exception e) {
                call.reject("join packet not sent", e);
            }
        });
    }

    /** Broadcasts hello (base64) to 255.255.255.255:80 and collects `{address, packet}` answers for timeoutMs. */
    @PluginMethod
    public void discover(PluginCall call) {
        String packet = call.getString("packet");
        int timeoutMs = Math.max(100, Math.min(5000, call.getInt("timeoutMs", 1000)));
        if (packet == null) {
            call.reject("packet missing");
            return;
        }
        io.execute(() -> {
            JSArray answers = new JSArray();
            try (DatagramSocket socket = new DatagramSocket()) {
                socket.setBroadcast(true);
                byte[] bytes = Base64.decode(packet, Base64.NO_WRAP);
                socket.send(new DatagramPacket(bytes, bytes.length, InetAddress.getByName("255.255.255.255"), MODULE_PORT));
                long end = System.currentTimeMillis() + timeoutMs;
                byte[] buffer = new byte[2048];
                while (System.currentTimeMillis() < end) {
                    socket.setSoTimeout((int) Math.max(1, end - System.currentTimeMillis()));
                    DatagramPacket answer = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(answer);
                    } catch (SocketTimeoutException timeout) {
                        break;
                    }
                    JSObject a = new JSObject();
                    a.put("address", answer.getAddress().getHostAddress());
                    a.put(
                        "packet",
                        Base64.encodeToString(Arrays.copyOf(answer.getData(), answer.getLength()), Base64.NO_WRAP)
                    );
                    answers.put(a);
                }
                JSObject out = new JSObject();
                out.put("answers", answers);
                call.resolve(out);
            } catch (Exception e) {
                call.reject("discovery failed", e);
            }
        });
    }

    @Override
    protected void handleOnDestroy() {
        releaseAccessPoint();
        io.shutdownNow();
    }
}
