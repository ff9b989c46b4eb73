import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { imageUrl } from "../../shared/api/api-host.ts";
import { errorMessage } from "../../shared/api/errors.ts";
import { uploadFile } from "../../shared/api/upload-file.ts";
import { toast } from "../../shared/ui/index.ts";
import { preparePhoto } from "./api/prepare-photo.ts";
import { type PhotoItem, photosThatFit } from "./rules.ts";

let photoSeq = 0;
/** A key unique to this page load for one photo of the form (React list key and upload bookkeeping). */
const newPhotoKey = () => {
  photoSeq += 1;
  return `photo-${Date.now().toString(36)}-${photoSeq}`;
};

/**
 * The photos of the AfterSaleCreate form with their uploads (spec §2 Other: up to 6 photos uploaded one by one):
 * starts from the request's uploaded `initial` paths; `add(files)` takes as many picked files as fit
 * (rules.ts `photosThatFit`, a toast "photo limit" for the rest), shows each at once from a local preview and
 * prepares and uploads it (`preparePhoto`, then `uploadFile`), marking it done with its path or failed with a toast
 * of the server's message; `remove(key)` drops a photo and frees its local preview. An upload that ends after the
 * form has gone changes nothing.
 */
export function usePhotoUploads(initial: readonly string[]): {
  photos: PhotoItem[];
  add: (files: File[]) => void;
  remove: (key: string) => void;
} {
  const { t } = useTranslation();
  const [photos, setPhotos] = useState<PhotoItem[]>(() =>
    initial.map((path) => ({ key: newPhotoKey(), preview: imageUrl(path) ?? path, path, status: "done" })),
  );
  const count = useRef(photos.length);
  count.current = photos.length;
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const update = (key: string, patch: Partial<PhotoItem>) =>
    alive.current && setPhotos((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  const add = (files: File[]) => {
    const fit = photosThatFit(count.current, files.length);
    if (fit < files.length) toast(t("afterSale.photoLimit"));
    const picked = files.slice(0, fit).map((file) => ({
      file,
      item: { key: newPhotoKey(), preview: URL.createObjectURL(file), path: null, status: "uploading" } as PhotoItem,
    }));
    count.current += picked.length;
    setPhotos((list) => [...list, ...picked.map((p) => p.item)]);
    for (const { file, item } of picked) {
      void (async () => {
        try {
          const blob = await preparePhoto(file);
          const uploaded = await uploadFile(blob, blob === file ? file.name || "photo.jpg" : "photo.jpg");
          update(item.key, { path: uploaded.fileUrl, status: "done" });
        } catch (err) {
          update(item.key, { status: "failed" });
          toast(errorMessage(err, t("afterSale.uploadFailed")));
        }
      })();
    }
  };

  const remove = (key: string) =>
    setPhotos((list) => {
      const gone = list.find((p) => p.key === key);
      if (gone?.preview.startsWith("blob:")) URL.revokeObjectURL(gone.preview);
      return list.filter((p) => p.key !== key);
    });

  return { photos, add, remove };
}
