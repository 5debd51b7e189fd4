package dev.stele.server;

import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.SnapshotFind;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/find}: entries by name or path pattern across the user's snapshots, streamed
 * one snapshot's matches at a time, so that a search over many large snapshots is never one answer
 * in memory. It reads only the user's snapshots, from their roots.
 */
final class Find {
  private Find() {}

  /** Resolves a snapshot the user reads, refusing as missing one that is not theirs. */
  interface Resolver {
    SnapshotCatalog.Entry resolve(String spec) throws Refusal, IOException;
  }

  /** Checks the query (refusing before any answer) and gives what the answer streams. */
  static Api.JsonBody answer(
      SnapshotBrowser browser, List<SnapshotCatalog.Entry> readable, Resolver resolve, Query q)
      throws Refusal, IOException {
    Set<String> ids = new LinkedHashSet<>();
    for (String spec : q.all("snapshot")) {
      ids.add(resolve.resolve(spec).id().hex());
    }
    SnapshotFind.Selection selection =
        new SnapshotFind.Selection(
            ids,
            Set.copyOf(q.all("host")),
            Set.copyOf(q.all("path")),
            q.flag("newestFirst"),
            q.number("limit", 0));
    SnapshotFind find;
    try {
      find = new SnapshotFind(browser, q.all("pattern"), q.flag("ignoreCase"));
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, e.getMessage() + " (?pattern=…)");
    }
    return out -> {
      out.writeStartArray();
      find.search(
          readable,
          selection,
          f -> {
            out.writeStartObject();
            out.writePOJOField("snapshot", ApiJson.Snapshot.of(f.snapshot()));
            out.writeArrayFieldStart("matches");
            for (SnapshotBrowser.Entry e : f.matches()) {
              out.writePOJO(ApiJson.Entry.of(e, false));
            }
            out.writeEndArray();
            out.writeEndObject();
            out.flush(); // each snapshot's matches go out as they are found
          });
      out.writeEndArray();
    };
  }
}
