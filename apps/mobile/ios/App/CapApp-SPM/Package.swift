// swift-tools-version: 5.9
import PackageDescription

// DO NOT MODIFY THIS FILE - managed by Capacitor CLI commands
let package = Package(
    name: "CapApp-SPM",
    platforms: [.iOS(.v15)],
    products: [
        .library(
            name: "CapApp-SPM",
            targets: ["CapApp-SPM"])
    ],
    dependencies: [
        .package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", exact: "8.5.2"),
        .package(name: "CapacitorCommunityBluetoothLe", path: "../../../../../node_modules/@capacitor-community/bluetooth-le"),
        .package(name: "CapacitorApp", path: "../../../../../node_modules/@capacitor/app"),
        .package(name: "CapacitorAppLauncher", path: "../../../../../node_modules/@capacitor/app-launcher"),
        .package(name: "CapacitorDevice", path: "../../../../../node_modules/@capacitor/device"),
        .package(name: "CapacitorGeolocation", path: "../../../../../node_modules/@capacitor/geolocation"),
        .package(name: "CapacitorSplashScreen", path: "../../../../../node_modules/@capacitor/splash-screen"),
        .package(name: "CapacitorTextZoom", path: "../../../../../node_modules/@capacitor/text-zoom"),
        .package(name: "CapacitorNativeSettings", path: "../../../../../node_modules/capacitor-native-settings"),
        .package(name: "CapacitorPluginJpush", path: "../../../../../node_modules/capacitor-plugin-jpush")
    ],
    targets: [
        .target(
            name: "CapApp-SPM",
            dependencies: [
                .product(name: "Capacitor", package: "capacitor-swift-pm"),
                .product(name: "Cordova", package: "capacitor-swift-pm"),
                .product(name: "CapacitorCommunityBluetoothLe", package: "CapacitorCommunityBluetoothLe"),
                .product(name: "CapacitorApp", package: "CapacitorApp"),
                .product(name: "CapacitorAppLauncher", package: "CapacitorAppLauncher"),
                .product(name: "CapacitorDevice", package: "CapacitorDevice"),
                .product(name: "CapacitorGeolocation", package: "CapacitorGeolocation"),
                .product(name: "CapacitorSplashScreen", package: "CapacitorSplashScreen"),
                .product(name: "CapacitorTextZoom", package: "CapacitorTextZoom"),
                .product(name: "CapacitorNativeSettings", package: "CapacitorNativeSettings"),
                .product(name: "CapacitorPluginJpush", package: "CapacitorPluginJpush")
            ]
        )
    ]
)
