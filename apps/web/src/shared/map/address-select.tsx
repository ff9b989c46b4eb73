import { DotLoading } from "antd-mobile";
import { AddOutline, EnvironmentOutline, LocationFill, MinusOutline, SearchOutline } from "antd-mobile-icons";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { getProfile } from "../api/profile.ts";
import { i18n } from "../i18n/index.ts";
import { getAccessToken } from "../storage/index.ts";
import { mountOverlay, useBackClose } from "../ui/overlay.tsx";
import { TopBar } from "../ui/page-shell.tsx";
import { toast } from "../ui/toast.ts";
import { formatLngLat, type LngLat } from "./coords.ts";
import {
  DEFAULT_CENTER,
  DEFAULT_ZOOM,
  defaultViewFor,
  OVERVIEW_ZOOM,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MAX_RESULTS,
} from "./defaults.ts";
import { type LocationResult, reverseGeocode, searchPlaces } from "./geocode.ts";
import { readPosition, reportPositionError, watchPosition } from "./location.ts";
import { loadMapConfig, type MapConfig } from "./map-config.ts";
import { formatDistance, type MapTool, type MapView, type MarkerHandle, type TileStatus } from "./overlays.ts";
import { type MapProvider, providerForType, type SearchHit } from "./providers.ts";
import "./address-select.css";
import { PlaceholderLine } from "../ui/placeholder-line.tsx";

/**
 * The Select-address dialog (spec §2): full-page map with a centred pin, search box ("location search"), title
 * "choose location", confirm on the right of the nav bar, the address of the map centre (or "loading") and the
 * "longitude,latitude" pair; centred on the user's position when available; tools distance, marker, rectangle pick,
 * map type switch, zoom in/out, locate-me (§4). Confirming without a resolved location says "location info is wrong"
 * (§5). Leaflet loads only when this opens.
 */

/** Props of {@link AddressSelect}. */
export interface AddressSelectProps {
  /** Start centre (GCJ-02); without it the map centres on the user's position, else the default centre of §9. */
  initial?: LngLat;
  onConfirm: (location: LocationResult) => void;
  onCancel: () => void;
  /** "dialog" takes part in the back stack itself; "page" is the /AddressSelect route (its back goes to the caller). */
  mode: "dialog" | "page";
}

const ME_ICON = {
  url: `data:image/svg+xml,${encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="9" fill="#0093dd" fill-opacity=".2"/><circle cx="10" cy="10" r="5.5" fill="#0093dd" stroke="#fff" stroke-width="2"/></svg>',
  )}`,
  size: [20, 20] as [number, number],
  anchor: [10, 10] as [number, number],
};

type AddressState = "loading" | "ready" | "failed";

/** The AddressSelect screen (used by the dialog and the /AddressSelect route). */
export function AddressSelect(props: AddressSelectProps) {
  const { t } = useTranslation();
  const { initial, onConfirm, onCancel, mode } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<MapView | null>(null);
  const providerRef = useRef<{ provider: MapProvider; config: MapConfig } | null>(null);
  const meRef = useRef<MarkerHandle | null>(null);
  const userMoved = useRef(false);
  const addressSeq = useRef(0);
  const [ready, setReady] = useState(false);
  const [center, setCenter] = useState<LngLat>(initial ?? DEFAULT_CENTER);
  const [location, setLocation] = useState<LocationResult | null>(null);
  const [addressState, setAddressState] = useState<AddressState>("loading");
  const [moving, setMoving] = useState(false);
  const [tileStatus, setTileStatus] = useState<TileStatus>("loading");
  const [style, setStyle] = useState<"normal" | "satellite">("normal");
  const [tool, setTool] = useState<MapTool | null>(null);
  const [toolResult, setToolResult] = useState("");
  const [keyword, setKeyword] = useState("");
  const [searchOpen, setSearchOpen] = useState(false);
  const [searching, setSearching] = useState(false);
  const [results, setResults] = useState<SearchHit[] | null>(null);

  useBackClose(mode === "dialog", onCancel);
  useBackClose(searchOpen, () => setSearchOpen(false));

  const resolveAddress = useCallback((point: LngLat) => {
    const seq = ++addressSeq.current;
    setCenter(point);
    setAddressState("loading");
    const source = providerRef.current;
    if (!source) return;
    reverseGeocode(point, source.provider, source.config.mapKeys).then(
      (result) => {
        if (seq !== addressSeq.current) return;
        setLocation(result);
        setAddressState("ready");
      },
      (err) => {
        if (seq !== addressSeq.current) return;
        console.info("[map] address fetch failed", err);
        setLocation(null);
        setAddressState("failed");
        toast(i18n.t("map.addressFailed"));
      },
    );
  }, []);

  // Load the configuration and Leaflet, then build the map.
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per mount
  useEffect(() => {
    let cancelled = false;
    const cleanups: Array<() => void> = [];
    // Without a start point the map opens on the owner's service region (read from the profile when signed in; the
    // spec's default centre when it cannot be read), then on the phone's position once known.
    const region =
      initial || !getAccessToken()
        ? Promise.resolve(null)
        : getProfile().then(
            (p) => p.serviceRegion,
            () => null,
          );
    void Promise.all([loadMapConfig(), import("./leaflet-view.ts"), region]).then(([config, { createMapView }, r]) => {
      if (cancelled || !containerRef.current) return;
      const provider = providerForType(config.mapType);
      providerRef.current = { provider, config };
      const start = initial ? { center: initial, zoom: DEFAULT_ZOOM } : defaultViewFor(r);
      const view = createMapView(containerRef.current, {
        provider,
        keys: config.mapKeys,
        center: start.center,
        zoom: start.zoom,
      });
      viewRef.current = view;
      cleanups.push(
        view.onMoveStart(() => setMoving(true)),
        view.onMoveEnd((point) => {
          setMoving(false);
          resolveAddress(point);
        }),
        view.onTileStatus(setTileStatus),
      );
      setReady(true);
      resolveAddress(view.getCenter());
      // the user's position, tracked while the dialog is open (spec §4)
      cleanups.push(
        watchPosition((me) => {
          if (meRef.current) meRef.current.setPosition(me);
          else meRef.current = view.addMarker(me, { icon: ME_ICON, title: i18n.t("map.myPosition") });
        }),
      );
      if (!initial) {
        readPosition().then(
          (me) => {
            if (!cancelled && !userMoved.current) view.setCenter(me, DEFAULT_ZOOM);
          },
          (err) => void reportPositionError(err),
        );
      }
    });
    return () => {
      cancelled = true;
      for (const c of cleanups) c();
      meRef.current = null;
      viewRef.current?.destroy();
      viewRef.current = null;
    };
  }, []);

  // Search after a 500 ms pause (spec §4, §9).
  useEffect(() => {
    const text = keyword.trim();
    if (!text) {
      setResults(null);
      setSearching(false);
      setSearchOpen(false);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      const view = viewRef.current;
      const source = providerRef.current;
      if (!view || !source) return;
      setSearchOpen(true);
      setSearching(true);
      searchPlaces(text, view.getBounds(), source.provider, source.config.mapKeys).then(
        (hits) => {
          if (stale) return;
          setResults(hits.slice(0, SEARCH_MAX_RESULTS));
          setSearching(false);
          if (hits.length === 0) toast(i18n.t("map.noResults"));
        },
        (err: unknown) => {
          if (stale) return;
          setResults([]);
          setSearching(false);
          toast(i18n.t("map.searchFailed", { message: err instanceof Error ? err.message : String(err) }));
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [keyword]);

  const chooseHit = (hit: SearchHit) => {
    setSearchOpen(false);
    userMoved.current = true;
    viewRef.current?.setCenter({ longitude: hit.lng, latitude: hit.lat }, hit.region ? OVERVIEW_ZOOM : DEFAULT_ZOOM);
  };

  const toggleTool = (next: MapTool) => {
    const view = viewRef.current;
    if (!view) return;
    if (view.activeTool() === next) {
      view.endTool();
      return;
    }
    setToolResult("");
    view.startTool(next, {
      onDistance: (meters) => setToolResult(t("map.total", { value: formatDistance(meters) })),
      onMarker: (p) => setToolResult(t("map.markerPlaced", { value: formatLngLat(p) })),
      onPick: (rect) =>
        setToolResult(t("map.picked", { sw: formatLngLat(rect.southWest), ne: formatLngLat(rect.northEast) })),
      onPickCancel: () => setToolResult(""),
      onEnd: () => setTool(null),
    });
    setTool(next);
  };

  const locateMe = () => {
    readPosition().then(
      (me) => {
        userMoved.current = true;
        viewRef.current?.setCenter(me, DEFAULT_ZOOM);
      },
      (err) => void reportPositionError(err),
    );
  };

  const confirm = () => {
    if (!location?.hasAddress || addressState !== "ready") {
      toast(t("map.infoWrong"));
      return;
    }
    onConfirm(location);
  };

  const toolButton = (name: MapTool, icon: string) => (
    <button
      type="button"
      className={`address-select__tool${tool === name ? " address-select__tool--active" : ""}`}
      data-testid={`address-select-tool-${name}`}
      aria-pressed={tool === name}
      onClick={() => toggleTool(name)}
    >
      <span className="address-select__tool-icon" aria-hidden>
        {icon}
      </span>
      <span className="address-select__tool-text">{t(`map.tools.${name}`)}</span>
    </button>
  );

  // The map is the page's main landmark; shown as a dialog over a page (which has its own), a named region.
  const MapArea = mode === "page" ? "main" : "section";
  return (
    <div className={`address-select address-select--${mode}`} data-testid="address-select">
      <header className="page__bar address-select__bar">
        <TopBar
          onBack={mode === "page" ? onCancel : undefined}
          title={<span data-testid="address-select-title">{t("map.title")}</span>}
          right={
            <button type="button" className="page__right" data-testid="address-select-confirm" onClick={confirm}>
              {t("map.confirm")}
            </button>
          }
        />
        <div className="has-placeholder-line">
          <div className="address-select__search">
            <SearchOutline className="address-select__search-icon" />
            <input
              type="search"
              value={keyword}
              placeholder={t("map.searchPlaceholder")}
              data-testid="address-select-search"
              enterKeyHint="search"
              onChange={(e) => setKeyword(e.target.value)}
              onFocus={() => {
                if (results && keyword.trim()) setSearchOpen(true);
              }}
            />
          </div>
          <PlaceholderLine text={t("map.searchPlaceholder")} />
        </div>
      </header>

      <MapArea className="address-select__map-area" aria-label={mode === "page" ? undefined : t("map.title")}>
        <div
          ref={containerRef}
          className="address-select__map"
          data-testid="address-select-map"
          onPointerDown={() => {
            userMoved.current = true;
          }}
        />
        {!ready ? (
          <div className="address-select__map-loading">
            <DotLoading color="primary" />
          </div>
        ) : null}
        <div
          className={`address-select__pin${moving ? " address-select__pin--lifted" : ""}`}
          data-testid="address-select-pin"
          aria-hidden
        >
          <LocationFill />
          <span className="address-select__pin-shadow" />
        </div>

        {tool ? (
          <div className="address-select__hint" data-testid="address-select-hint">
            <div>{t(`map.hints.${tool}`)}</div>
            {toolResult ? (
              <div className="address-select__hint-result" data-testid="address-select-tool-result">
                {toolResult}
              </div>
            ) : null}
          </div>
        ) : toolResult ? (
          <div className="address-select__hint" data-testid="address-select-tool-result">
            {toolResult}
          </div>
        ) : null}
        {tileStatus === "failed" && !tool && !toolResult ? (
          <div className="address-select__offline" data-testid="address-select-offline">
            {t("map.offline")}
          </div>
        ) : null}

        <div className="address-select__tools">
          <button
            type="button"
            className={`address-select__tool${style === "satellite" ? " address-select__tool--active" : ""}`}
            data-testid="address-select-tool-maptype"
            data-style={style}
            aria-pressed={style === "satellite"}
            title={style === "normal" ? t("map.tools.satellite") : t("map.tools.normal")}
            onClick={() => {
              const next = style === "normal" ? "satellite" : "normal";
              viewRef.current?.setStyle(next);
              setStyle(next);
            }}
          >
            <span className="address-select__tool-icon" aria-hidden>
              ◧
            </span>
            <span className="address-select__tool-text">{t("map.tools.mapType")}</span>
          </button>
          {toolButton("distance", "↔")}
          {toolButton("marker", "⚑")}
          {toolButton("picker", "⬚")}
        </div>

        <div className="address-select__zoom">
          <button
            type="button"
            aria-label={t("map.tools.zoomIn")}
            data-testid="address-select-tool-zoomin"
            onClick={() => viewRef.current?.zoomIn()}
          >
            <AddOutline />
          </button>
          <button
            type="button"
            aria-label={t("map.tools.zoomOut")}
            data-testid="address-select-tool-zoomout"
            onClick={() => viewRef.current?.zoomOut()}
          >
            <MinusOutline />
          </button>
        </div>
        <button
          type="button"
          className="address-select__locate"
          aria-label={t("map.tools.locate")}
          data-testid="address-select-tool-locate"
          onClick={locateMe}
        >
          <EnvironmentOutline />
        </button>

        {searchOpen ? (
          <div className="address-select__results-layer">
            <button
              type="button"
              className="address-select__mask"
              aria-label={t("picker.cancel")}
              data-testid="address-select-mask"
              onClick={() => setSearchOpen(false)}
            />
            <div className="address-select__results" data-testid="address-select-results">
              {searching ? (
                <div className="address-select__results-state" data-testid="address-select-searching">
                  <DotLoading color="primary" /> {t("map.searching")}
                </div>
              ) : results && results.length === 0 ? (
                <div className="address-select__results-state" data-testid="address-select-empty">
                  {t("map.noResults")}
                </div>
              ) : (
                results?.map((hit, i) => (
                  <button
                    type="button"
                    key={`${hit.name}-${hit.lng}-${hit.lat}`}
                    className="address-select__result"
                    data-testid={`address-select-result-${i}`}
                    onClick={() => chooseHit(hit)}
                  >
                    <span className="address-select__result-name">{hit.name}</span>
                    <span className="address-select__result-address">{hit.address}</span>
                  </button>
                ))
              )}
            </div>
          </div>
        ) : null}
      </MapArea>

      <footer className="address-select__info">
        <div className="address-select__address" data-testid="address-select-address">
          {addressState === "loading" ? (
            <span className="muted">{t("map.loading")}…</span>
          ) : addressState === "failed" ? (
            <span className="address-select__address--failed">{t("map.addressFailed")}</span>
          ) : (
            location?.address
          )}
        </div>
        <div className="address-select__lnglat" data-testid="address-select-lnglat">
          {formatLngLat(center)}
        </div>
      </footer>
    </div>
  );
}

/**
 * Shows the AddressSelect dialog over the current page; resolves with the confirmed location, or null when the user
 * backs out (back arrow, hardware back).
 */
export function showAddressSelectDialog(initial?: LngLat): Promise<LocationResult | null> {
  return mountOverlay<LocationResult | null>((visible, done) =>
    visible ? (
      <AddressSelect mode="dialog" initial={initial} onConfirm={(l) => done(l)} onCancel={() => done(null)} />
    ) : null,
  );
}
