package dev.stele.testing;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.StorageRefusedException;
import java.nio.file.Path;

/**
 * The process {@link FilesystemBlobStoreTest} starts under another umask or user: creates {@code
 * keys/k}, {@code packs/p} and {@code stele.format} in the store at the first argument, and prints
 * {@code ok}, or the problem of the {@link StorageRefusedException} that refused it.
 */
public final class CreateBlobs {
  private CreateBlobs() {}

  public static void main(String[] args) throws Exception {
    FilesystemBlobStore store = FilesystemBlobStore.open(Path.of(args[0]));
    try {
      for (String name : new String[] {"keys/k", "packs/p", "stele.format"}) {
        store.create(name, new byte[] {1}, Retention.NONE);
      }
      System.out.println("ok");
    } catch (StorageRefusedException e) {
      System.out.println(e.problem() + " " + e.getMessage());
    }
  }
}
