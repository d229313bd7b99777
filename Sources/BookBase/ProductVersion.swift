/// bookrender's version, where stages below the library need it (the PDF's producer).
public enum ProductVersion {
    public static let current = "0.16.0"
}
