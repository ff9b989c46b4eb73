import type { LngLat } from "./coords.ts";
import type { MapStyle } from "./providers.ts";

/**
 * The map view contract of the map layer (spec §1 "markers, lines, polygons", §2 tools, §4 map tools, §5 "Custom map
 * marker icons must give a size, else an error"). Coordinates are in the app's system (GCJ-02; WGS-84 outside China);
 * the Leaflet implementation (leaflet-view.ts, loaded only with the AddressSelect dialog) converts to the provider's.
 */

/** A custom marker icon: image URL and size in CSS px (required, spec §5); anchor defaults to the bottom centre. */
export interface MarkerIcon {
  url: string;
  size?: [number, number];
  anchor?: [number, number];
}

/** Marker options; without `icon` the default pin is drawn. */
export interface MarkerOptions {
  icon?: MarkerIcon;
  title?: string;
  /** Text shown in a small label above the marker. */
  label?: string;
}

/** Stroke of a line or polygon outline. */
export interface LineStyle {
  color?: string;
  weight?: number;
  opacity?: number;
  dashArray?: string;
}

/** A polygon's stroke and fill. */
export interface PolygonStyle extends LineStyle {
  fillColor?: string;
  fillOpacity?: number;
}

/** A drawn overlay. */
export interface OverlayHandle {
  remove(): void;
}

/** A drawn marker. */
export interface MarkerHandle extends OverlayHandle {
  getPosition(): LngLat;
  setPosition(point: LngLat): void;
}

/** A drawn line or polygon. */
export interface PathHandle extends OverlayHandle {
  setPoints(points: LngLat[]): void;
}

/** A rectangle reported by the picker tool (spec §4): south-west and north-east corners. */
export interface PickedRect {
  southWest: LngLat;
  northEast: LngLat;
}

/** The map tools of spec §2/§4 that stay active until right-click (or the same button) ends them. */
export type MapTool = "distance" | "marker" | "picker";

/** What a tool reports. */
export interface ToolCallbacks {
  /** Distance tool: total length in metres of the measured line and its vertices, after each added point. */
  onDistance?: (meters: number, points: LngLat[]) => void;
  /** Marker tool: a marker was placed. */
  onMarker?: (point: LngLat) => void;
  /** Picker tool: a rectangle was drawn (press began, release ended). */
  onPick?: (rect: PickedRect) => void;
  /** Picker tool: the pointer left the map area while drawing, the rectangle is dropped. */
  onPickCancel?: () => void;
  /** The tool ended (right-click, another tool, or {@link MapView.endTool}). */
  onEnd?: (tool: MapTool) => void;
}

/** Tile loading state: "ok" once any tile loaded, "failed" when tiles fail and none loaded (offline). */
export type TileStatus = "loading" | "ok" | "failed";

/** A map on screen. */
export interface MapView {
  getCenter(): LngLat;
  setCenter(point: LngLat, zoom?: number): void;
  getZoom(): number;
  zoomIn(): void;
  zoomOut(): void;
  getBounds(): PickedRect;
  getStyle(): MapStyle;
  /** Switches between the standard and satellite layers (spec §2 "map type switch"). */
  setStyle(style: MapStyle): void;
  /** Adds a marker; throws Error when a custom icon has no size (spec §5). */
  addMarker(point: LngLat, options?: MarkerOptions): MarkerHandle;
  addPolyline(points: LngLat[], style?: LineStyle): PathHandle;
  addPolygon(points: LngLat[], style?: PolygonStyle): PathHandle;
  /** Starts a tool (ending the current one). */
  startTool(tool: MapTool, callbacks?: ToolCallbacks): void;
  /** Ends the active tool, if any; its drawing stays until the tool starts again or {@link clearDrawings}. */
  endTool(): void;
  activeTool(): MapTool | null;
  /** Removes what the tools drew. */
  clearDrawings(): void;
  /** Subscribes to the end of each move or zoom; returns the unsubscribe. */
  onMoveEnd(listener: (center: LngLat) => void): () => void;
  /** Subscribes to the start of each move (e.g. to lift the centre pin); returns the unsubscribe. */
  onMoveStart(listener: () => void): () => void;
  onTileStatus(listener: (status: TileStatus) => void): () => void;
  /** Recomputes the size after the container changed. */
  invalidateSize(): void;
  destroy(): void;
}

/**
 * Checks a custom marker icon (spec §5 "Custom map marker icons must give a size, else an error"): throws Error when
 * `size` is missing or not two positive numbers. Returns the size and anchor (default: bottom centre).
 */
export function assertMarkerIcon(icon: MarkerIcon): { size: [number, number]; anchor: [number, number] } {
  const size = icon.size;
  if (size?.length !== 2 || !(size[0] > 0) || !(size[1] > 0)) {
    throw new Error("A custom map marker icon must give its size [width, height] in px");
  }
  if (!icon.url) throw new Error("A custom map marker icon needs a url");
  return { size, anchor: icon.anchor ?? [size[0] / 2, size[1]] };
}

/** Formats a length in metres as the distance tool shows it: "850 m", "1.24 km". */
export function formatDistance(meters: number): string {
  return meters < 1000 ? `${Math.round(meters)} m` : `${(meters / 1000).toFixed(2)} km`;
}
