package dev.stele.k8s.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.crdv2.generator.CRDPostProcessor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Generates {@code deploy/crds/} from the resource classes, run by the build (exec-maven-plugin,
 * after the test classes compile): fabric8's CRD generator, except that the printer columns keep
 * the order in which the class declares them — Phase first, as Velero's — where the generator sorts
 * them by JSON path (so Age, from {@code .metadata}, always came first).
 *
 * <p>Arguments: the module's class directory (every {@link CustomResource} there is generated) and
 * the output directory.
 */
public final class CrdFiles {
  private CrdFiles() {}

  public static void main(String[] args) throws IOException, ClassNotFoundException {
    Path classes = Path.of(args[0]);
    List<Class<? extends HasMetadata>> types = resources(classes);
    int written =
        new CRDGenerator()
            .customResourceClasses(types)
            .withPostProcessor(
                new CRDPostProcessor() {
                  @Override
                  public HasMetadata process(HasMetadata crd, String version) {
                    return inDeclaredOrder(crd, types);
                  }
                })
            .inOutputDir(new File(args[1]))
            .detailedGenerate()
            .numberOfGeneratedCRDs();
    if (written != types.size()) {
      throw new IllegalStateException(written + " CRDs generated for " + types.size() + " types");
    }
  }

  /** The custom resource classes of the package, by name. */
  private static List<Class<? extends HasMetadata>> resources(Path classes)
      throws IOException, ClassNotFoundException {
    String pkg = CrdFiles.class.getPackageName();
    Path dir = classes.resolve(pkg.replace('.', '/'));
    List<Class<? extends HasMetadata>> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        String name = f.getFileName().toString();
        if (!name.endsWith(".class") || name.contains("$")) {
          continue;
        }
        Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - 6));
        if (CustomResource.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers())) {
          found.add(c.asSubclass(HasMetadata.class));
        }
      }
    }
    return found;
  }

  /** {@code crd} with its printer columns in the order its class declares them. */
  static HasMetadata inDeclaredOrder(HasMetadata crd, List<Class<? extends HasMetadata>> types) {
    if (!(crd instanceof CustomResourceDefinition definition)) {
      return crd;
    }
    String kind = definition.getSpec().getNames().getKind();
    Class<? extends HasMetadata> type =
        types.stream().filter(t -> HasMetadata.getKind(t).equals(kind)).findFirst().orElseThrow();
    List<String> declared =
        Arrays.stream(type.getAnnotationsByType(AdditionalPrinterColumn.class))
            .map(AdditionalPrinterColumn::name)
            .toList();
    for (var version : definition.getSpec().getVersions()) {
      List<CustomResourceColumnDefinition> columns = version.getAdditionalPrinterColumns();
      if (columns != null) {
        columns.sort(Comparator.comparingInt(c -> declared.indexOf(c.getName())));
      }
    }
    return crd;
  }
}
