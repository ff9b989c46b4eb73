import Capacitor
import Foundation
import Network
import NetworkExtension

/// AquaWifi (TypeScript side apps/mobile/src/plugins/wifi; docs/device-protocol.md §13.6): the phone's
/// Wi-Fi for the old module's access-point setup. NEHotspotNetwork reads the current network (needs the location
/// permission and the "Access Wi-Fi Information" entitlement), NEHotspotConfiguration joins the module's open access
/// point for this app (joinOnce), and the Network framework sends the join packet over UDP on the Wi-Fi interface
/// (requiredInterfaceType .wifi) and broadcasts discovery (local-network usage text in Info.plist). iOS cannot list
/// networks in range: getNetworks answers an empty list.
@objc(AquaWifiPlugin)
public class AquaWifiPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "AquaWifiPlugin"
    public let jsName = "AquaWifi"
    public let pluginMethods: [CAPPluginMethod] = [
        CAPPluginMethod(name: "getCurrentNetwork", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "getNetworks", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "joinAccessPoint", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "leaveAccessPoint", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "sendJoinPacket", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "discover", returnType: CAPPluginReturnPromise)
    ]

    /// The join packet is broadcast, as python-broadlink setup() sends it (broadlink/__init__.py line 332).
    static let joinHost = NWEndpoint.Host("255.255.255.255")
    static let modulePort = NWEndpoint.Port(integerLiteral: 80)
    private var joinedSsid: String?
    private let queue = DispatchQueue(label: "com.aquapilot.wifi")

    private func currentNetwork(_ done: @escaping ([String: Any]) -> Void) {
        NEHotspotNetwork.fetchCurrent { network in
            let ssid = network?.ssid
            done([
                "connected": ssid != nil,
                "ssid": ssid as Any? ?? NSNull(),
                // iOS does not say the band; the web app's 2.4 GHz check then relies on the name (spec §2)
                "band": NSNull(),
                "ip": Self.wifiAddress() as Any? ?? NSNull()
            ])
        }
    }

    /// The IPv4 address of the Wi-Fi interface (en0), or nil.
    static func wifiAddress() -> String? {
        var address: String?
        var ifaddr: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&ifaddr) == 0, let first = ifaddr else { return nil }
        defer { freeifaddrs(ifaddr) }
        for pointer in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let entry = pointer.pointee
            guard entry.ifa_addr.pointee.sa_family == UInt8(AF_INET), String(cString: entry.ifa_name) == "en0" else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            getnameinfo(entry.ifa_addr, socklen_t(entry.ifa_addr.pointee.sa_len), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            address = String(cString: host)
        }
        return address
    }

    @objc func getCurrentNetwork(_ call: CAPPluginCall) {
        currentNetwork { call.resolve($0) }
    }

    @objc func getNetworks(_ call: CAPPluginCall) {
        call.resolve(["networks": []])
    }

    @objc func joinAccessPoint(_ call: CAPPluginCall) {
        guard let ssid = call.getString("ssid"), !ssid.isEmpty else { return call.reject("ssid missing") }
        let configuration = NEHotspotConfiguration(ssid: ssid)
        configuration.joinOnce = true
        NEHotspotConfigurationManager.shared.apply(configuration) { error in
            if let error = error as NSError?, error.domain == NEHotspotConfigurationErrorDomain,
               error.code != NEHotspotConfigurationError.alreadyAssociated.rawValue {
                let notFound = error.code == NEHotspotConfigurationError.userDenied.rawValue ? "failed" : "not-found"
                return call.resolve(["ok": false, "error": notFound])
            }
            self.joinedSsid = ssid
            call.resolve(["ok": true, "error": NSNull()])
        }
    }

    @objc func leaveAccessPoint(_ call: CAPPluginCall) {
        if let ssid = joinedSsid { NEHotspotConfigurationManager.shared.removeConfiguration(forSSID: ssid) }
        joinedSsid = nil
        // the phone needs a moment to go back to its home network
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) { self.currentNetwork { call.resolve($0) } }
    }

    /// One UDP exchange on Wi-Fi: sends `data` to `host`, collects answers until `timeout` (first answer only when `once`).
    private func exchange(_ data: Data, host: NWEndpoint.Host, timeout: Double, once: Bool,
                          done: @escaping ([(String, Data)]) -> Void) {
        let parameters = NWParameters.udp
        parameters.requiredInterfaceType = .wifi
        parameters.allowLocalEndpointReuse = true
        let connection = NWConnection(host: host, port: Self.modulePort, using: parameters)
        var answers: [(String, Data)] = []
        var finished = false
        let finish = {
            if finished { return }
            finished = true
            connection.cancel()
            done(answers)
        }
        func receive() {
            connection.receiveMessage { content, _, _, error in
                if let content = content {
                    var address = "\(host)"
                    if case let .hostPort(remote, _) = connection.currentPath?.remoteEndpoint ?? .hostPort(host: host, port: Self.modulePort) {
                        address = "\(remote)"
                    }
                    answers.append((address, content))
                    if once { return self.queue.async(execute: finish) }
                }
                if error == nil && !finished { receive() }
            }
        }
        connection.stateUpdateHandler = { state in
            if case .ready = state {
                connection.send(content: data, completion: .contentProcessed { _ in receive() })
            } else if case .failed = state {
                self.queue.async(execute: finish)
            }
        }
        connection.start(queue: queue)
        queue.asyncAfter(deadline: .now() + timeout, execute: finish)
    }

    @objc func sendJoinPacket(_ call: CAPPluginCall) {
        guard let packet = call.getString("packet"), let data = Data(base64Encoded: packet) else {
            return call.reject("packet missing")
        }
        // Answers once the packet is out; listens 0.5 s for a product module's acknowledgement (stock modules send none).
        exchange(data, host: Self.joinHost, timeout: 0.5, once: true) { answers in
            call.resolve(["acknowledged": !answers.isEmpty])
        }
    }

    @objc func discover(_ call: CAPPluginCall) {
        guard let packet = call.getString("packet"), let data = Data(base64Encoded: packet) else {
            return call.reject("packet missing")
        }
        let timeoutMs = min(5000, max(100, call.getInt("timeoutMs") ?? 1000))
        exchange(data, host: NWEndpoint.Host("255.255.255.255"), timeout: Double(timeoutMs) / 1000, once: false) { answers in
            call.resolve(["answers": answers.map { ["address": $0.0, "packet": $0.1.base64EncodedString()] }])
        }
    }
}
