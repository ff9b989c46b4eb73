package com.aquapilot.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
