import AVFoundation
import Capacitor
import Photos
import WebKit

/// AquaShell (TypeScript side apps/mobile/src/plugins/shell): the native permissions of spec §6 that iOS
/// has for this app (camera; photos as "storage"), every other alias answered "denied", and clearing the web view's
/// cache.
@objc(AquaShellPlugin)
public class AquaShellPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "AquaShellPlugin"
    public let jsName = "AquaShell"
    public let pluginMethods: [CAPPluginMethod] = [
        CAPPluginMethod(name: "checkPermissions", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "requestPermissions", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "clearCache", returnType: CAPPluginReturnPromise)
    ]

    static let aliases = ["camera", "storage", "notifications", "microphone", "contacts", "calendar", "phone",
                          "callLog", "sms", "sensors", "activityRecognition"]

    private func state(_ alias: String) -> String {
        switch alias {
        case "camera":
            switch AVCaptureDevice.authorizationStatus(for: .video) {
            case .authorized: return "granted"
            case .notDetermined: return "prompt"
            default: return "denied"
            }
        case "storage":
            switch PHPhotoLibrary.authorizationStatus(for: .readWrite) {
            case .authorized, .limited: return "granted"
            case .notDetermined: return "prompt"
            default: return "denied"
            }
        default:
            return "denied"
        }
    }

    private func status() -> [String: String] {
        var out: [String: String] = [:]
        for alias in Self.aliases { out[alias] = state(alias) }
        return out
    }

    @objc override public func checkPermissions(_ call: CAPPluginCall) {
        call.resolve(status())
    }

    @objc override public func requestPermissions(_ call: CAPPluginCall) {
        let wanted = call.getArray("permissions", String.self) ?? []
        let group = DispatchGroup()
        if wanted.contains("camera") {
            group.enter()
            AVCaptureDevice.requestAccess(for: .video) { _ in group.leave() }
        }
        if wanted.contains("storage") {
            group.enter()
            PHPhotoLibrary.requestAuthorization(for: .readWrite) { _ in group.leave() }
        }
        group.notify(queue: .main) { call.resolve(self.status()) }
    }

    @objc func clearCache(_ call: CAPPluginCall) {
        let types: Set<String> = [WKWebsiteDataTypeDiskCache, WKWebsiteDataTypeMemoryCache]
        DispatchQueue.main.async {
            WKWebsiteDataStore.default().removeData(ofTypes: types, modifiedSince: Date(timeIntervalSince1970: 0)) {
                call.resolve()
            }
        }
    }
}
