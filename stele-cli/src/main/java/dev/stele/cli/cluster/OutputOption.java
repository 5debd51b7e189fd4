package dev.stele.cli.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.CliException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code -o table|wide|json|yaml} of the {@code get} commands and {@code -o json|yaml} of the
 * {@code describe} commands: the table (with more columns when wide) or the text, or the resources
 * as the API server holds them (one resource when one name was given, else a {@code List}), as
 * kubectl prints them.
 */
final class OutputOption {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      description =
          "table (default), wide (more columns), json or yaml; for describe: text (default), json"
              + " or yaml.")
  String format;

  /** True for a table, wide or not; a usage failure for an unknown format. */
  boolean table() {
    String f = format == null ? "table" : format.toLowerCase(Locale.ROOT);
    return switch (f) {
      case "table", "wide" -> true;
      case "json", "yaml" -> false;
      default -> throw CliException.usage("-o " + format + ": use table, wide, json or yaml");
    };
  }

  /** True for the table with every column. */
  boolean wide() {
    return format != null && format.equalsIgnoreCase("wide");
  }

  /** True for describe's text; a usage failure for a format describe does not print. */
  boolean text() {
    String f = format == null ? "text" : format.toLowerCase(Locale.ROOT);
    return switch (f) {
      case "text" -> true;
      case "json", "yaml" -> false;
      default -> throw CliException.usage("-o " + format + ": describe prints text, json or yaml");
    };
  }

  /** kubectl's {@code List}: a KubernetesList cannot hold custom resources (no builder). */
  private static Map<String, Object> list(List<? extends HasMetadata> items) {
    Map<String, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("items", items);
    return list;
  }

  /** Prints {@code items} as JSON or YAML: the only one when {@code single}, else a List. */
  void print(
      KubernetesClient client, PrintWriter out, List<? extends HasMetadata> items, boolean single) {
    Object value = single && items.size() == 1 ? items.get(0) : list(items);
    var serialization = client.getKubernetesSerialization();
    if (format.equalsIgnoreCase("yaml")) {
      out.print(serialization.asYaml(value));
      return;
    }
    try {
      out.println(
          JSON.writerWithDefaultPrettyPrinter()
              .writeValueAsString(JSON.readTree(serialization.asJson(value))));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
