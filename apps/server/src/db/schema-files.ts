/** One uploaded image (table `uploads`): who uploaded it, so only they can attach it (DeviceImage, after-sales). */
export interface UploadsTable {
  /** The relative path served, "/uploads/files/<random>.<ext>" (primary key). */
  path: string;
  user_id: string;
  content_type: string;
  /** Bytes. */
  size: number;
  created_at: string;
}

/** Table types of the files module (joined into the server's `Database`). */
export interface FilesTables {
  uploads: UploadsTable;
}
