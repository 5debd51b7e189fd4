package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Which objects a Backup or a Restore selects, with Velero's option names: namespaces, resources,
 * label selectors and cluster-scoped objects. A mixin of {@link BackupSpecOptions} ({@code backup
 * create}, {@code schedule create}) and of {@code restore create}; each value is checked when read,
 * so that a typo is one line naming the option and nothing is created.
 *
 * <p>The descriptions here speak of backing up; {@code restore create} gives its own through its
 * resource bundle ({@code RestoreCreateCommand.properties}, by each option's description key).
 */
final class FilterOptions {
  @Option(
      names = "--include-namespaces",
      split = ",",
      paramLabel = "NS",
      descriptionKey = "include-namespaces",
      description = "Namespaces to back up (default: all, also written *).")
  List<String> includeNamespaces;

  @Option(
      names = "--exclude-namespaces",
      split = ",",
      paramLabel = "NS",
      descriptionKey = "exclude-namespaces",
      description = "Namespaces not to back up.")
  List<String> excludeNamespaces;

  @Option(
      names = "--include-resources",
      split = ",",
      paramLabel = "RESOURCE",
      descriptionKey = "include-resources",
      description =
          "Resources to back up, by plural name, with the group for non-core ones (configmaps,"
              + " deployments.apps); default: all the operator collects.")
  List<String> includeResources;

  @Option(
      names = "--exclude-resources",
      split = ",",
      paramLabel = "RESOURCE",
      descriptionKey = "exclude-resources",
      description = "Resources not to back up, named as for --include-resources.")
  List<String> excludeResources;

  @Option(
      names = {"-l", "--selector"},
      paramLabel = "SELECTOR",
      description =
          "Only objects this label selector selects, in kubectl's syntax: app=web,tier!=cache,"
              + "env in (prod,staging),!legacy.")
  String selector;

  @Option(
      names = "--or-selector",
      paramLabel = "SELECTOR",
      description =
          "Only objects one of these label selectors selects, separated by ' or ', such as"
              + " 'app=web or app=api'; not together with --selector.")
  String orSelector;

  @Option(
      names = "--include-cluster-resources",
      arity = "1",
      paramLabel = "true|false",
      descriptionKey = "include-cluster-resources",
      description =
          "Cluster-scoped resources: true, all; false, none; unset, all when every namespace is"
              + " backed up, else those the backed-up objects need (CRDs, volumes, storage"
              + " classes, cluster roles and bindings of service accounts).")
  Boolean includeClusterResources;

  List<String> includedNamespaces() {
    return KubeNames.namespaces("--include-namespaces", includeNamespaces);
  }

  List<String> excludedNamespaces() {
    return KubeNames.namespaces("--exclude-namespaces", excludeNamespaces);
  }

  List<String> includedResources() {
    return resources("--include-resources", includeResources);
  }

  List<String> excludedResources() {
    return resources("--exclude-resources", excludeResources);
  }

  LabelSelector labelSelector() {
    if (selector != null && orSelector != null) {
      throw CliException.usage("--selector and --or-selector cannot be used together: use one");
    }
    return KubeNames.selector("--selector", selector);
  }

  List<LabelSelector> orLabelSelectors() {
    return KubeNames.selectors("--or-selector", orSelector);
  }

  Boolean includeClusterResources() {
    return includeClusterResources;
  }

  static List<String> resources(String option, List<String> names) {
    if (names == null) {
      return null;
    }
    List<String> out = names.stream().map(String::strip).toList();
    for (String n : out) {
      if (n.isEmpty() || n.contains(" ") || n.contains("/")) {
        throw CliException.usage(
            option + " '" + n + "': name resources by plural name, such as deployments.apps");
      }
    }
    return out;
  }
}
