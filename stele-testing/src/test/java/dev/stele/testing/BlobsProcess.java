package dev.stele.testing;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.StorageRefusedException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;

/**
 * The process {@link FilesystemBlobStoreTest} starts under another umask or user. Arguments: {@code
 * create} or {@code read}, and the store's root. Creates or reads {@code stele.format}, {@code
 * packs/p} and {@code keys/k} in that order, and prints {@code ok}, or what refused it.
 */
public final class BlobsProcess {
  private static final String[] NAMES = {"stele.format", "packs/p", "keys/k"};

  private BlobsProcess() {}

  public static void main(String[] args) throws Exception {
    FilesystemBlobStore store = FilesystemBlobStore.open(Path.of(args[1]));
    try {
      for (String name : NAMES) {
        if (args[0].equals("create")) {
          store.create(name, new byte[] {1}, Retention.NONE);
        } else {
          store.read(name);
        }
      }
      System.out.println("ok");
    } catch (StorageRefusedException e) {
      System.out.println(e.problem() + " " + e.getMessage());
    } catch (AccessDeniedException e) {
      System.out.println("DENIED " + e.getFile());
    }
  }
}
