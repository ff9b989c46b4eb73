import Capacitor
import UIKit

/// The iOS shell's view controller: Capacitor's, with our own plugins (AquaWifi, AquaShell) registered
/// once the bridge is up. Main.storyboard names this class.
class MainViewController: CAPBridgeViewController {
    override open func capacitorDidLoad() {
        bridge?.registerPluginInstance(AquaWifiPlugin())
        bridge?.registerPluginInstance(AquaShellPlugin())
    }
}
