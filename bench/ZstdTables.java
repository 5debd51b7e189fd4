import com.github.luben.zstd.ZstdCompressCtx;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * zstd's CPU and output at level 3 with other table sizes, on the files of a directory cut into
 * pieces of at most 1 MiB (a backup compresses each chunk alone, with a 1 MiB window): the
 * measurement behind Stele's level-3 short-match table (docs/performance.md, twenty-second round).
 *
 * <pre>
 * java -cp 'stele-cli/target/stele/lib/*' bench/ZstdTables.java DIR MAX_BYTES HASH,CHAIN ...
 * </pre>
 *
 * Each HASH,CHAIN pair is a hash log and a chain log, 0 for the level's own. The configurations
 * run in turn, five rounds, on one thread; each line gives the least thread CPU time of the rounds
 * and the compressed size against the first configuration's.
 */
public final class ZstdTables {
  private static final int PIECE = 1 << 20;
  private static final int ROUNDS = 5;

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: ZstdTables DIR MAX_BYTES HASH,CHAIN [HASH,CHAIN ...]");
      System.exit(2);
    }
    List<byte[]> pieces = pieces(Path.of(args[0]), Long.parseLong(args[1]));
    long total = pieces.stream().mapToLong(p -> p.length).sum();
    String[] configs = Arrays.copyOfRange(args, 2, args.length);
    long[] cpu = new long[configs.length];
    long[] size = new long[configs.length];
    Arrays.fill(cpu, Long.MAX_VALUE);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    byte[] out = new byte[PIECE + (PIECE >> 7) + 1024];
    for (int round = 0; round < ROUNDS; round++) {
      for (int k = 0; k < configs.length; k++) {
        String[] logs = configs[k].split(",");
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
          ctx.setWindowLog(20);
          ctx.setHashLog(Integer.parseInt(logs[0]));
          ctx.setChainLog(Integer.parseInt(logs[1]));
          ctx.setLevel(3);
          long start = threads.getCurrentThreadCpuTime();
          long bytes = 0;
          for (byte[] piece : pieces) {
            int n = ctx.compressByteArray(out, 0, out.length, piece, 0, piece.length);
            bytes += Math.min(n, piece.length); // a piece that does not shrink is stored as is
          }
          cpu[k] = Math.min(cpu[k], threads.getCurrentThreadCpuTime() - start);
          size[k] = bytes;
        }
      }
    }
    System.out.printf("%s: %,d bytes in %,d pieces%n", args[0], total, pieces.size());
    for (int k = 0; k < configs.length; k++) {
      System.out.printf(
          "hash,chain %-6s CPU %.3f s (%.3f of the first)  %,d bytes (%.4f of the first)%n",
          configs[k], cpu[k] / 1e9, (double) cpu[k] / cpu[0], size[k], (double) size[k] / size[0]);
    }
  }

  /** The regular files under {@code dir} in path order, cut into pieces, up to {@code max} bytes. */
  private static List<byte[]> pieces(Path dir, long max) throws Exception {
    List<byte[]> pieces = new ArrayList<>();
    long total = 0;
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path file : (Iterable<Path>) paths.sorted()::iterator) {
        if (total >= max || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(file);
        for (int at = 0; at < bytes.length; at += PIECE) {
          pieces.add(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + PIECE)));
        }
        total += bytes.length;
      }
    }
    return pieces;
  }
}
